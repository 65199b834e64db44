package jforge.worker;

import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static jforge.worker.Proto.BYTES;
import static jforge.worker.Proto.LIST;

/**
 * The JDK class server: the bytes of JDK classes (CLASS_BYTES) and the classes of a package
 * prefix (LIST_CLASSES), read from the worker JVM's jrt:/ file system. Why: jforge reads JDK
 * classes from $JAVA_HOME/jmods when it can, but a JRE, or a JDK packaged without jmods, has
 * them only in its runtime image, which only a JVM of that version can read.
 */
final class Jrt {
    private FileSystem jrt;

    private FileSystem jrt() {
        if (jrt == null) {
            jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        }
        return jrt;
    }

    /** CLASS_BYTES: replies BYTES with 1 and the class file, or 0 when there is no such class. */
    void classBytes(Frames f) throws IOException {
        String name = f.in.rstr();
        Buf out = f.start(BYTES);
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        byte[] found = null;
        Path pdir = jrt().getPath("/packages", pkg);
        if (!pkg.isEmpty() && Files.isDirectory(pdir)) {
            try (DirectoryStream<Path> mods = Files.newDirectoryStream(pdir)) {
                for (Path m : mods) {
                    Path p = jrt().getPath("/modules", m.getFileName().toString(),
                            name.replace('.', '/') + ".class");
                    if (Files.exists(p)) {
                        found = Files.readAllBytes(p);
                        break;
                    }
                }
            }
        }
        if (found == null) {
            out.u8(0);
        } else {
            out.u8(1);
            out.i32(found.length);
            out.bytes(found, 0, found.length);
        }
        f.send();
    }

    /** LIST_CLASSES: replies LIST with the sorted names of the classes under a package prefix. */
    void listClasses(Frames f) throws IOException {
        String prefix = f.in.rstr();
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> pkgs = Files.newDirectoryStream(jrt().getPath("/packages"))) {
            for (Path pk : pkgs) {
                String pkg = pk.getFileName().toString();
                if (pkg.equals(prefix) || pkg.startsWith(prefix + ".")) {
                    addPackage(pk, pkg, names);
                }
            }
        }
        Collections.sort(names);
        Buf out = f.start(LIST);
        out.i32(names.size());
        for (String s : names) {
            out.str(s);
        }
        f.send();
    }

    private void addPackage(Path pk, String pkg, List<String> names) throws IOException {
        try (DirectoryStream<Path> mods = Files.newDirectoryStream(pk)) {
            for (Path m : mods) {
                Path dir = jrt().getPath("/modules", m.getFileName().toString(), pkg.replace('.', '/'));
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                    for (Path file : files) {
                        String fn = file.getFileName().toString();
                        if (fn.endsWith(".class") && !fn.equals("module-info.class")
                                && !fn.equals("package-info.class")) {
                            names.add(pkg + "." + fn.substring(0, fn.length() - 6));
                        }
                    }
                }
            }
        }
    }
}
