package org.jspin.cli;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What {@code jspin run} and {@code jspin exec} can start: an example or benchmark by name, or any
 * main class, found on jspin's own class path or on a given one.
 */
final class Programs {
    /** Programs known by name. */
    static final Map<String, String> NAMED = Map.of(
            "halo2d", "org.jspin.examples.halo2d.Halo2d",
            "halo3d", "org.jspin.examples.halo3d.Halo3d",
            "fft2d", "org.jspin.examples.fft2d.Fft2d",
            "particles", "org.jspin.examples.particles.Particles",
            "pingpong", "org.jspin.cli.PingPongRank",
            "tcpfloor", "org.jspin.cli.SocketFloorRank");

    private Programs() {
    }

    /**
     * @param program   a name of {@link #NAMED} or a fully qualified main class
     * @param classpath extra class path entries ({@link File#pathSeparator}-separated), or null
     * @return the program's {@code public static void main(String[])}
     * @throws MpiException ERR_ARG naming the program when it is neither a known name nor a main class
     */
    static Method main(String program, String classpath) {
        String className = NAMED.getOrDefault(program, program);
        ClassLoader loader = Programs.class.getClassLoader();
        if (classpath != null && !classpath.isBlank()) {
            List<URL> urls = new ArrayList<>();
            for (String entry : classpath.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    try {
                        urls.add(new File(entry).toURI().toURL());
                    } catch (MalformedURLException e) {
                        throw new MpiException(ErrorClass.ERR_ARG, "class path entry '" + entry + "' is not a path");
                    }
                }
            }
            loader = new URLClassLoader(urls.toArray(URL[]::new), loader);
        }
        try {
            Class<?> c = Class.forName(className, true, loader);
            Method m = c.getMethod("main", String[].class);
            if (!Modifier.isStatic(m.getModifiers())) {
                throw new NoSuchMethodException("main is not static");
            }
            return m;
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "'" + program + "' is neither a program of jspin " + NAMED.keySet()
                    + " nor a class with a static main(String[]) on the class path"
                    + (classpath == null ? " (use --classpath for your own classes)" : " '" + classpath + "'"));
        }
    }

    /** Runs {@code main} with {@code args}; what it throws comes out unwrapped. */
    static void invoke(Method main, List<String> args) throws Throwable {
        try {
            main.invoke(null, (Object) args.toArray(String[]::new));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
