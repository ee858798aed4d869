package org.jspin.cli;

import org.jspin.error.MpiException;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jspin} command. */
@Command(name = "jspin", mixinStandardHelpOptions = true, version = "jspin 0.1.0",
        description = "MPI-style messaging for non-contiguous data on the JVM.",
        subcommands = {RunCommand.class, ExecCommand.class, TypeinfoCommand.class, SimCommand.class, FiguresCommand.class, CompareCommand.class, BenchCommand.class, TimelineCommand.class, DemoCommand.class, ConfigCommand.class, NewCommand.class, ProjectCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {
    private Main() {
    }

    /** @return a command line with jspin's subcommands and its error handling */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // everything after PROGRAM belongs to the program, options included
        cl.getSubcommands().get("run").setStopAtPositional(true);
        cl.getSubcommands().get("exec").setStopAtPositional(true);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof MpiException m) {
                cmd.getErr().println("jspin: " + m.getMessage());
                return 2;
            }
            throw ex;
        });
        return cl;
    }

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        CommandLine cl = commandLine();
        int status = cl.execute(args);
        // a command's print() does not flush, and System.exit would drop what it left buffered
        cl.getOut().flush();
        cl.getErr().flush();
        System.exit(status);
    }
}
