package org.jspin.mpi.trace;

import java.util.Arrays;
import java.util.List;

/**
 * The program a trace's job.json names. A launcher's command ({@code jspin exec}) names it before
 * the program starts; otherwise it is the JVM's main class and its arguments, as the JVM reports them.
 */
public final class TracedProgram {
    private static volatile TracedProgram named;

    private final String program;
    private final List<String> args;

    private TracedProgram(String program, List<String> args) {
        this.program = program;
        this.args = List.copyOf(args);
    }

    /** Names the program this JVM runs (its example name, or main class) and its arguments. */
    public static void name(String program, List<String> args) {
        named = new TracedProgram(program == null ? "" : program, args == null ? List.of() : args);
    }

    /** @return the program named, or else the JVM's main class and arguments ({@code sun.java.command}) */
    public static TracedProgram current() {
        TracedProgram p = named;
        return p != null ? p : fromCommand(System.getProperty("sun.java.command", ""));
    }

    /** @return the program and arguments of a {@code sun.java.command} value ("main arg1 arg2") */
    static TracedProgram fromCommand(String command) {
        String[] words = command.isBlank() ? new String[0] : command.trim().split("\\s+");
        return words.length == 0 ? new TracedProgram("", List.of())
                : new TracedProgram(words[0], Arrays.asList(words).subList(1, words.length));
    }

    /** @return the program's name */
    public String program() {
        return program;
    }

    /** @return its arguments */
    public List<String> args() {
        return args;
    }
}
