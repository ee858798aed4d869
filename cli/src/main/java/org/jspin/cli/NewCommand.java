package org.jspin.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code jspin new NAME}: a first project that builds as written, with Maven's defaults of any
 * version: a pom naming jspin-runtime and every plugin's version, a program and its test.
 */
@Command(name = "new", mixinStandardHelpOptions = true,
        description = {"Writes a Maven project in directory NAME: a pom with jspin-runtime (./jspin install puts it in"
                + " ~/.m2), a first program (a token round a ring of ranks) and its test on thread ranks.",
                "Build it with 'mvn package' in NAME; run it with 'jspin run -n 4 --classpath NAME/target/NAME-1.0.jar"
                        + " PACKAGE.Main'."})
final class NewCommand implements Callable<Integer> {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");
    private static final Pattern PACKAGE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
    private static final String TEMPLATES = "/org/jspin/cli/project/";

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "NAME", description = "the project's directory and artifact: lower case, digits and '-'")
    private String name;

    @Option(names = "--package", paramLabel = "PACKAGE", defaultValue = "com.example",
            description = "the program's Java package, also the project's group (default: ${DEFAULT-VALUE})")
    private String pkg;

    @Option(names = "--in", paramLabel = "DIR", defaultValue = ".",
            description = "where the project's directory goes (default: the current directory)")
    private Path parent;

    @Override
    public Integer call() throws IOException {
        if (!NAME.matcher(name).matches()) {
            throw new MpiException(ErrorClass.ERR_ARG, "project name must be lower case letters, digits and '-',"
                    + " starting with a letter, got '" + name + "'");
        }
        if (!PACKAGE.matcher(pkg).matches()) {
            throw new MpiException(ErrorClass.ERR_ARG, "--package must be a Java package name in lower case, got '" + pkg + "'");
        }
        Path target = parent.resolve(name).toAbsolutePath().normalize();
        if (Files.exists(target)) {
            throw new MpiException(ErrorClass.ERR_ARG, "project directory " + target + " already exists; choose another NAME"
                    + " or --in");
        }
        Files.createDirectories(target.getParent());
        // written aside, then moved into place at once: a failure leaves nothing half-written
        Path work = Files.createTempDirectory(target.getParent(), "." + name + "-");
        try {
            String path = pkg.replace('.', '/');
            Map<String, String> values = Map.of("%NAME%", name, "%GROUP%", pkg, "%PACKAGE%", pkg, "%PATH%", path);
            write(work.resolve("pom.xml"), "pom.xml", values);
            write(work.resolve("README.md"), "README.md", values);
            write(work.resolve("src/main/java").resolve(path).resolve("Main.java"), "Main.java", values);
            write(work.resolve("src/test/java").resolve(path).resolve("MainTest.java"), "MainTest.java", values);
            Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            delete(work);
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("jspin new: wrote " + target + " (pom.xml, README.md, " + pkg + ".Main and its test)");
        out.println("  build: cd " + target + " && mvn -q package");
        out.println("  run:   jspin run -n 4 --classpath " + target.resolve("target/" + name + "-1.0.jar") + " " + pkg + ".Main");
        out.flush();
        return 0;
    }

    private static void write(Path to, String template, Map<String, String> values) throws IOException {
        String text;
        try (InputStream in = NewCommand.class.getResourceAsStream(TEMPLATES + template)) {
            if (in == null) {
                throw new IllegalStateException("template " + template + " is missing from jspin's jar");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (Map.Entry<String, String> v : values.entrySet()) {
            text = text.replace(v.getKey(), v.getValue());
        }
        Files.createDirectories(to.getParent());
        Files.writeString(to, text);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
