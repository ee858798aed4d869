package org.jspin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * Every command's help renders as written: picocli formats descriptions as format strings, so a bare
 * {@code %} (a JFR file name pattern, say) makes it warn on standard error and print the raw text.
 */
class HelpTextTest {
    @Test
    void everyCommandsHelpRendersWithoutAWarning() {
        List<String> warnings = new ArrayList<>();
        List<CommandLine> all = new ArrayList<>();
        collect(Main.commandLine(), all);
        PrintStream saved = System.err;
        for (CommandLine c : all) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            String usage;
            try {
                usage = c.getUsageMessage();
            } finally {
                System.setErr(saved);
            }
            assertFalse(usage.isBlank(), c.getCommandName());
            String printed = err.toString(StandardCharsets.UTF_8);
            if (!printed.isEmpty()) {
                warnings.add(c.getCommandSpec().qualifiedName() + ": " + printed.strip());
            }
        }
        assertEquals(List.of(), warnings);
    }

    private static void collect(CommandLine c, List<CommandLine> out) {
        out.add(c);
        for (CommandLine sub : c.getSubcommands().values()) {
            if (!out.contains(sub)) {
                collect(sub, out);
            }
        }
    }
}
