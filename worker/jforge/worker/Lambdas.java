package jforge.worker;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import static jforge.worker.Proto.LB_ARG;
import static jforge.worker.Proto.LB_VALUE;
import static jforge.worker.Proto.LB_VOID;

/**
 * Lambda literals (value tag V_LAMBDA): an implementation of the literal's functional
 * interface whose one abstract method returns nothing, one of its arguments or a constant,
 * as the lambda jforge writes in source ({@code (p$0, p$1) -> p$0}) does.
 *
 * Why a {@link Proxy} and not LambdaMetafactory: any interface of any class loader, with no
 * method handle to find for the body; default methods run their own code
 * ({@code Comparator.reversed()} calls {@code compare} on the proxy), and {@code equals},
 * {@code hashCode}, {@code toString} behave like a lambda's (identity).
 */
final class Lambdas {
    private Lambdas() {}

    /**
     * The worker's coverage, paused while a lambda literal's handler dispatches (the code under
     * test calls it inside a call, where probes are recorded). Why: the handler's own work
     * (Method lookups, the first dispatch of an interface) runs instrumented JDK classes under
     * test (ArrayList) depending on the worker's history: with 2 workers those hits fell on
     * other sequences than with 1, and the written suites differed with the number of workers.
     * A written test's lambda is no proxy, so none of it is what the test runs. The proxy
     * itself is made between calls, where nothing is recorded. Null: nothing paused.
     */
    static Coverage coverage;

    /** A decoded lambda literal: made into an object once its interface is known. */
    record Spec(int arity, int body, int arg, Object value) {
        /** The implementation of interface {@code iface}. */
        Object make(Class<?> iface) {
            if (!iface.isInterface()) {
                throw new IllegalArgumentException("a lambda literal of " + iface.getName() + ", which is no interface");
            }
            // made between calls, where the worker records no probes (Executor.covLive)
            return Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface}, new Handler(this, iface));
        }

        private Object invoke(Object proxy, Class<?> iface, Method m, Object[] args) throws Throwable {
            // a default method runs its own code (covered); the rest is the handler's own
            if (m.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, m, args);
            }
            Coverage c = coverage;
            Object live = c == null ? null : c.pause();
            try {
                return body(proxy, iface, m, args);
            } finally {
                if (c != null) {
                    c.resume(live);
                }
            }
        }

        private Object body(Object proxy, Class<?> iface, Method m, Object[] args) {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "lambda of " + iface.getName();
                };
            }
            return switch (body) {
                case LB_ARG -> args != null && arg < args.length ? args[arg] : null;
                case LB_VALUE -> value;
                default -> null;
            };
        }
    }

    /** The handler of a lambda literal's proxy: named, so that {@link #returnsNull} knows it. */
    private record Handler(Spec spec, Class<?> iface) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            return spec.invoke(proxy, iface, m, args);
        }
    }

    /**
     * Is x a lambda literal whose method returns null ({@code (p$0) -> null}, made where no
     * other value of the result type was at hand)? Its null flows into the code it was given
     * to: a NullPointerException there is an input jforge made, not a defect (Blame).
     */
    static boolean returnsNull(Object x) {
        return x != null
                && Proxy.isProxyClass(x.getClass())
                && Proxy.getInvocationHandler(x) instanceof Handler h
                && h.spec.body == LB_VALUE
                && h.spec.value == null;
    }

    /** Reads a lambda literal after its tag: arity, body kind, then its index or value. */
    static Spec read(Buf b) {
        int arity = b.ru8();
        int body = b.ru8();
        return switch (body) {
            case LB_VOID -> new Spec(arity, body, 0, null);
            case LB_ARG -> new Spec(arity, body, b.ru8(), null);
            case LB_VALUE -> new Spec(arity, body, 0, Executor.readValue(b, new Executor.Stmt()));
            default -> throw new IllegalStateException("bad lambda body " + body);
        };
    }
}
