package configure;

/** An option: made plain by its constructor, required only once configured so. */
public class Opt {
    private final String name;
    private boolean required;

    public Opt(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public boolean isRequired() {
        return required;
    }

    /** A configurer: a void setter. */
    public void setRequired(boolean required) {
        this.required = required;
    }
}
