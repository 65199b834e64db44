import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * Test driver for instrumented classes. Run with -Xverify:all.
 *
 * <p>"calls" mode reads lines "call CLASS METHOD ARG..." or "new CLASS ARG..." from stdin
 * (ARG is i:INT, j:LONG, c:CHAR, s:STRING or z:BOOL), runs each and prints "OK result",
 * "EXC class" (the call threw) or "ERR throwable" (could not run, e.g. VerifyError), a tab,
 * "HITS " with the probe ids hit during the call, a tab, and "NUMS " with the int/long
 * operands the comparison log recorded (comma-separated).
 *
 * <p>"load FILE" mode initialises every class named in FILE (one binary name per line) and
 * prints "VERIFY name: msg" for VerifyError/ClassFormatError, "OTHER name: msg" for any
 * other failure, and finally "SUMMARY ok=N verify=N other=N".
 */
public class Driver {
    public static void main(String[] a) throws Exception {
        if (a.length > 0 && a[0].equals("load")) {
            load(a[1]);
            return;
        }
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                continue;
            }
            String[] p = line.split(" ", -1);
            jforge.rt.Cov.snapshotAndReset();
            jforge.rt.Cov.drainNums();
            String res;
            try {
                res = "OK " + invoke(p);
            } catch (InvocationTargetException e) {
                res = "EXC " + e.getCause().getClass().getName();
            } catch (Throwable e) {
                res = "ERR " + e;
            }
            boolean[] h = jforge.rt.Cov.snapshotAndReset();
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < h.length; i++) {
                if (h[i]) {
                    sb.append(sb.length() == 0 ? "" : ",").append(i);
                }
            }
            StringBuilder nums = new StringBuilder();
            for (long v : jforge.rt.Cov.drainNums()) {
                nums.append(nums.length() == 0 ? "" : ",").append(v);
            }
            System.out.println(res.replace('\n', ' ').replace('\t', ' ') + "\tHITS " + sb
                    + "\tNUMS " + nums);
        }
    }

    static Object arg(String s) {
        if (s.startsWith("i:")) return Integer.parseInt(s.substring(2));
        if (s.startsWith("j:")) return Long.parseLong(s.substring(2));
        if (s.startsWith("c:")) return s.charAt(2);
        if (s.startsWith("z:")) return Boolean.parseBoolean(s.substring(2));
        if (s.startsWith("s:")) return s.substring(2);
        throw new IllegalArgumentException("bad argument " + s);
    }

    static Object invoke(String[] p) throws Throwable {
        Class<?> c = Class.forName(p[1]);
        int first = p[0].equals("new") ? 2 : 3;
        Object[] args = new Object[p.length - first];
        for (int i = 0; i < args.length; i++) {
            args[i] = arg(p[first + i]);
        }
        if (p[0].equals("new")) {
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (k.getParameterCount() == args.length) {
                    k.setAccessible(true);
                    return k.newInstance(args);
                }
            }
            throw new NoSuchMethodException("constructor of " + p[1]);
        }
        for (Method m : c.getDeclaredMethods()) {
            if (m.getName().equals(p[2]) && m.getParameterCount() == args.length) {
                m.setAccessible(true);
                Object target = null;
                if (!Modifier.isStatic(m.getModifiers())) {
                    Constructor<?> k = c.getDeclaredConstructor();
                    k.setAccessible(true);
                    target = k.newInstance();
                }
                return m.invoke(target, args);
            }
        }
        throw new NoSuchMethodException(p[1] + "." + p[2]);
    }

    static void load(String file) throws Exception {
        List<String> names = Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8);
        int ok = 0, verify = 0, other = 0;
        ClassLoader loader = Driver.class.getClassLoader();
        for (String n : names) {
            if (n.trim().isEmpty()) continue;
            try {
                Class.forName(n, true, loader);
                ok++;
            } catch (VerifyError | ClassFormatError e) {
                verify++;
                System.out.println("VERIFY " + n + ": " + String.valueOf(e).replace('\n', ' '));
            } catch (Throwable e) {
                other++;
                System.out.println("OTHER " + n + ": " + String.valueOf(e).replace('\n', ' '));
            }
        }
        System.out.println("SUMMARY ok=" + ok + " verify=" + verify + " other=" + other);
    }
}
