package org.jspin.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** Runs the jspin command line in this JVM, as the shell would run it, and keeps what it printed. */
final class InProcess {
    /** What one command did: its exit status and its standard output and error. */
    record Run(int status, String out, String err) {
    }

    private InProcess() {
    }

    /** @return the result of {@code jspin args...} */
    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new Run(status, out.toString(), err.toString());
    }
}
