package org.jspin.mpi.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jspin.datatype.json.DatatypeJson;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What a trace's {@code job.json} says of the run (docs/trace-format.md): rank 0 writes it when
 * every rank has written its file.
 *
 * @param ranks   ranks in the job
 * @param program the program's name ({@link TracedProgram})
 * @param args    its arguments
 * @param backend the NIC backend
 * @param fabric  the fabric
 * @param threads whether the ranks were threads of one JVM
 */
public record TraceJob(int ranks, String program, List<String> args, String backend, String fabric, boolean threads) {
    /** The name of the file in the trace directory. */
    public static final String FILE = "job.json";

    /** Copies {@code args}. */
    public TraceJob {
        args = List.copyOf(args);
    }

    /** @return the one-line JSON object */
    public String toJson() {
        ObjectNode o = DatatypeJson.mapper().createObjectNode();
        o.put("format", "jspin-trace").put("version", TraceWriter.VERSION).put("ranks", ranks).put("program", program);
        ArrayNode a = o.putArray("args");
        args.forEach(a::add);
        o.put("backend", backend).put("fabric", fabric).put("threads", threads).put("clock", Tracer.CLOCK);
        return o.toString();
    }

    /**
     * Writes {@code dir/job.json} whole or not at all (through a file it then renames).
     *
     * @throws MpiException ERR_OTHER naming the file if it cannot be written
     */
    public void write(Path dir) {
        Path target = dir.resolve(FILE);
        Path partial = dir.resolve(FILE + ".partial");
        try {
            Files.writeString(partial, toJson() + "\n");
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, "cannot write the trace's " + target + ": " + e.getMessage(), e);
        }
    }
}
