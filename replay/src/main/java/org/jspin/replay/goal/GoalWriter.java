package org.jspin.replay.goal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.schedule.Schedule;

/**
 * Writes a {@link Schedule} as GOAL text that LogGOPSim's txt2bin accepts: operations labelled
 * {@code l<n>} (n their offset in the rank), then the dependencies, grouped by the operation depended
 * on in the schedule's order, so that LogGOPSim frees operations in the order this replay does.
 * Datatypes are not GOAL's: messages are their bytes.
 */
public final class GoalWriter {
    private GoalWriter() {
    }

    /** Writes the schedule to {@code file} through a temporary file, so that nothing is half-written. */
    public static void write(Schedule s, Path file) {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                write(s, out);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new MpiException(ErrorClass.ERR_ARG, "cannot write GOAL file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the schedule as GOAL text. */
    public static void write(Schedule s, Writer out) throws IOException {
        StringBuilder b = new StringBuilder(256);
        out.write("num_ranks " + s.ranks() + "\n");
        for (int r = 0; r < s.ranks(); r++) {
            int first = s.firstOf(r);
            int end = s.firstOf(r + 1);
            out.write("\nrank " + r + " {\n");
            for (int op = first; op < end; op++) {
                b.setLength(0);
                b.append('l').append(op - first).append(": ");
                switch (s.kind(op)) {
                    case Schedule.SEND -> b.append("send ").append(s.size(op)).append("b to ").append(s.peer(op))
                            .append(" tag ").append(tag(s.tag(op)));
                    case Schedule.RECV -> b.append("recv ").append(s.size(op)).append("b from ")
                            .append(s.peer(op) == Schedule.ANY ? "-1" : Integer.toString(s.peer(op)))
                            .append(" tag ").append(tag(s.tag(op)));
                    default -> b.append("calc ").append(s.size(op));
                }
                if (s.cpu(op) != 0) b.append(" cpu ").append(s.cpu(op));
                if (s.nic(op) != 0 && s.kind(op) != Schedule.CALC) b.append(" nic ").append(s.nic(op));
                out.write(b.append('\n').toString());
            }
            for (int op = first; op < end; op++) {
                for (int i = 0; i < s.completionDependents(op); i++) {
                    out.write("l" + (s.completionDependent(op, i) - first) + " requires l" + (op - first) + "\n");
                }
                for (int i = 0; i < s.startDependents(op); i++) {
                    out.write("l" + (s.startDependent(op, i) - first) + " irequires l" + (op - first) + "\n");
                }
            }
            out.write("}\n");
        }
    }

    private static String tag(int tag) {
        return tag == Schedule.ANY ? "-1" : Integer.toUnsignedString(tag);
    }

    private static void deleteQuietly(Path tmp) {
        if (tmp == null) return;
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
