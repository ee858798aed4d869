package org.jspin.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What {@code jspin run} and {@code jspin exec} start: a program, where its classes are, and its arguments. */
final class ProgramSpec {
    @Option(names = "--classpath", paramLabel = "PATH", description = "where PROGRAM's classes are, if not in jspin")
    String classpath;

    @Parameters(index = "0", paramLabel = "PROGRAM", description = "an example's name or a main class")
    String program;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "the program's arguments")
    List<String> args = new ArrayList<>();

    /** @return the program's main method ({@link Programs#main}) */
    java.lang.reflect.Method main() {
        return Programs.main(program, classpath);
    }

    /** @return these as {@code jspin exec}'s arguments */
    List<String> asExecArguments() {
        List<String> exec = new ArrayList<>();
        if (classpath != null) {
            exec.add("--classpath");
            exec.add(classpath);
        }
        exec.add(program);
        exec.addAll(args);
        return exec;
    }
}
