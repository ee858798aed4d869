package org.jspin.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.json.DatatypeJson;
import org.jspin.datatype.json.LayoutSummary;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code jspin typeinfo}: the layout summary of a datatype description, one JSON object per line. */
@Command(name = "typeinfo", mixinStandardHelpOptions = true,
        description = {"Prints the layout summary (size, bounds, merged regions) of a JSON datatype description.",
                "With --batch, reads JSON Lines of {\"type\": ..., \"count\": ...} and prints one summary per line;"
                        + " a case that fails prints {\"error\": ...} in its place and the exit status is 1."})
final class TypeinfoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--count", defaultValue = "1", description = "elements of the type (default: ${DEFAULT-VALUE})")
    private long count;

    @ArgGroup(multiplicity = "1")
    private Input input;

    static final class Input {
        @Parameters(paramLabel = "FILE.json", description = "a datatype description")
        private Path file;

        @Option(names = "--batch", paramLabel = "FILE.jsonl", description = "one case per line")
        private Path batch;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (input.batch == null) {
            Datatype t = DatatypeJson.parse(read(input.file));
            out.println(LayoutSummary.of(t, count));
            out.flush();
            return 0;
        }
        int failures = 0;
        StringBuilder line = new StringBuilder(1 << 16);
        try (BufferedReader r = open(input.batch)) {
            String text;
            int lineNo = 0;
            while ((text = r.readLine()) != null) {
                lineNo++;
                if (text.isBlank()) {
                    continue;
                }
                line.setLength(0);
                try {
                    JsonNode c = DatatypeJson.mapper().readTree(text);
                    if (c == null || !c.isObject() || !c.has("type")) {
                        throw new MpiException(ErrorClass.ERR_ARG, "line " + lineNo + " has no \"type\"");
                    }
                    LayoutSummary.append(DatatypeJson.read(c.get("type")), count(c, lineNo), line);
                } catch (IOException | RuntimeException e) { // one bad case must not lose the others
                    failures++;
                    line.setLength(0);
                    line.append("{\"error\":").append(DatatypeJson.mapper().writeValueAsString(
                            "line " + lineNo + ": " + e.getMessage())).append('}');
                }
                out.append(line).append('\n');
            }
        }
        out.flush();
        return failures == 0 ? 0 : 1;
    }

    private static long count(JsonNode c, int lineNo) {
        JsonNode n = c.get("count");
        if (n == null) {
            return 1;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new MpiException(ErrorClass.ERR_COUNT, "line " + lineNo + ": count must be an integer, got " + n);
        }
        return n.asLong();
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot read " + f + ": " + e.getMessage(), e);
        }
    }

    private static BufferedReader open(Path f) {
        try {
            return Files.newBufferedReader(f);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot read " + f + ": " + e.getMessage(), e);
        }
    }
}
