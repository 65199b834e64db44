package precond;

/**
 * Pages with titles. Its members of package access keep preconditions their callers in this
 * package check, as internals do (guava's CompactHashMap, Cut): seek(int) asserts a page in
 * range, titleLength() needs a title at the page. Called directly with other inputs they
 * fail, which is no bug. The public API has one planted bug: describe() on a page without a
 * title throws a NullPointerException with no null input.
 */
public class Pager {
    private final String[] titles = new String[4];
    private int page;

    public Pager() {}

    /** Package access: callers keep 0 <= page < 4. */
    void seek(int page) {
        assert page >= 0 && page < 4 : "page " + page;
        this.page = Math.floorMod(page, 4);
    }

    /** Package access: callers first check that the page has a title. */
    int titleLength() {
        return titles[page].length();
    }

    public void next() {
        if (page < 3) {
            page++;
        }
    }

    public int page() {
        return page;
    }

    public void setTitle(String title) {
        titles[page] = title == null ? "" : title;
    }

    /** The planted bug: a page without a title throws a NullPointerException. */
    public String describe() {
        return "page " + page + ": " + titles[page].toUpperCase();
    }
}
