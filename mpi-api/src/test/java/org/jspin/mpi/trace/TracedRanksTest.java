package org.jspin.mpi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.Comm;
import org.jspin.mpi.LocalRanks;
import org.jspin.mpi.MpiOptions;
import org.jspin.mpi.Request;
import org.jspin.mpi.op.Ops;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small program on three thread ranks under tracing: each rank's file, line by line. */
class TracedRanksTest {
    private static final int N = 3;
    private static final String VECTOR = "{\"vector\":{\"count\":4,\"blocklength\":1,\"stride\":2,\"of\":\"double\"}}";

    @TempDir
    static Path dir;
    private static final long[] SUMS = new long[N];

    @BeforeAll
    static void runTheProgram() {
        TracedProgram.name("traced-ranks", List.of("--rounds", "1"));
        LocalRanks.run(N, MpiOptions.defaults().withTrace(dir.toString()), 60, mpi -> {
            Comm world = mpi.world();
            int r = world.rank();
            int right = (r + 1) % N;
            int left = (r + N - 1) % N;
            MemorySegment out = MemorySegment.ofArray(new int[] {r, r, r, r});
            MemorySegment in = MemorySegment.ofArray(new int[4]);
            // a ring of blocking sends
            if (r == 0) {
                world.send(out, 4, Datatype.INT, right, 1);
                world.recv(in, 4, Datatype.INT, left, 1);
            } else {
                world.recv(in, 4, Datatype.INT, left, 1);
                world.send(out, 4, Datatype.INT, right, 1);
            }
            // an exchange of nonblocking ones
            Request.waitAll(world.irecv(in, 4, Datatype.INT, left, 2), world.isend(out, 4, Datatype.INT, right, 2));
            // a vector type, to a contiguous receive
            Datatype every2nd = Datatype.vector(4, 1, 2, Datatype.DOUBLE).commit();
            if (r == 0) {
                world.send(MemorySegment.ofArray(new double[8]), 1, every2nd, 1, 3);
            } else if (r == 1) {
                world.recv(MemorySegment.ofArray(new double[4]), 4, Datatype.DOUBLE, 0, 3);
            }
            // a collective, as the messages it runs
            long[] sum = new long[1];
            world.allreduce(MemorySegment.ofArray(new long[] {r + 1}), MemorySegment.ofArray(sum), 1, Datatype.LONG,
                    Ops.SUM);
            SUMS[r] = sum[0];
            mpi.markIteration();
        });
    }

    private static List<String> lines(int rank) throws Exception {
        return Files.readAllLines(Tracer.rankFile(dir, rank));
    }

    @Test
    void eachRankRecordsItsUserMessagesInOrderWithPeersTagsBytesAndTypes() throws Exception {
        assertEquals(List.of(6L, 6L, 6L), List.of(SUMS[0], SUMS[1], SUMS[2]));
        assertEquals(ringAndExchange(0) + """
                type 2 %s
                send L6 to 1 tag 3 ctx 0 bytes 32 type 2 count 1
                type 3 "byte"
                """.formatted(VECTOR), userPart(0));
        assertEquals(ringAndExchange(1) + """
                type 2 "double"
                recv L6 from 0 tag 3 ctx 0 bytes 32 type 2 count 4 matched 0 3
                type 3 "byte"
                """, userPart(1));
        assertEquals(ringAndExchange(2) + """
                type 2 "byte"
                """, userPart(2));
    }

    /** The first lines of rank {@code r}'s file: in the ring rank 0 sends first and the others receive first. */
    private static String ringAndExchange(int r) {
        int right = (r + 1) % N;
        int left = (r + N - 1) % N;
        String send = "send L%d to " + right + " tag 1 ctx 0 bytes 16 type 1 count 4\n";
        String recv = "recv L%d from " + left + " tag 1 ctx 0 bytes 16 type 1 count 4 matched " + left + " 1\n";
        return "jspin-trace 1 rank " + r + " of 3\ntype 1 \"int\"\n"
                + (r == 0 ? send.formatted(1) + recv.formatted(2) : recv.formatted(1) + send.formatted(2))
                + """
                irecv L3 from %1$d tag 2 ctx 0 bytes 16 type 1 count 4
                isend L4 to %2$d tag 2 ctx 0 bytes 16 type 1 count 4
                done L3 bytes 16 matched %1$d 2
                wait L5 on L3 L4
                """.formatted(left, right);
    }

    @Test
    void anIterationMarkIsRecordedWhereTheProgramMadeIt() throws Exception {
        for (int r = 0; r < N; r++) {
            List<String> all = lines(r);
            assertTrue(all.getLast().matches("mark \\d+"), "rank " + r + ": " + all.getLast());
            assertEquals(1, all.stream().filter(l -> l.startsWith("mark")).count(), "rank " + r);
        }
    }

    @Test
    void labelsIncreaseAndComputeIsPositiveThreadTime() throws Exception {
        for (int r = 0; r < N; r++) {
            long last = 0;
            for (String line : lines(r)) {
                String[] w = line.split(" ");
                if (w[0].equals("jspin-trace") || w[0].equals("type") || w[0].equals("done")) {
                    continue;
                }
                long label = Long.parseLong(w[1]);
                assertTrue(label > last, "rank " + r + ": " + line);
                last = label;
                if (w[0].equals("calc")) {
                    assertEquals(3, w.length, line);
                    assertTrue(Long.parseLong(w[2]) > 0, line);
                }
            }
        }
    }

    @Test
    void theAllreduceAppearsAsMessagesOfTheCollectiveContextThatMatchAcrossRanks() throws Exception {
        Map<String, Integer> sent = new HashMap<>();
        Map<String, Integer> received = new HashMap<>();
        for (int r = 0; r < N; r++) {
            List<String> coll = collectivePart(r);
            assertFalse(coll.isEmpty(), "rank " + r + " ran no collective messages");
            for (String line : coll) {
                String[] w = line.split(" ");
                switch (w[0]) {
                    case "isend", "send" -> {
                        assertEquals("1", w[7], line); // the world's collective context
                        sent.merge(r + ">" + w[3] + " tag " + w[5] + " bytes " + w[9], 1, Integer::sum);
                    }
                    case "irecv", "recv" -> assertEquals("1", w[7], line);
                    case "done" -> received.merge(w[5] + ">" + r + " tag " + w[6] + " bytes " + w[3], 1, Integer::sum);
                    case "wait", "calc", "type", "mark" -> { }
                    default -> throw new AssertionError("unexpected line " + line);
                }
            }
        }
        assertEquals(sent, received);
    }

    @Test
    void rankZeroWritesJobJsonOnceEveryRankHasWrittenItsFile() throws Exception {
        assertEquals("{\"format\":\"jspin-trace\",\"version\":1,\"ranks\":3,\"program\":\"traced-ranks\","
                + "\"args\":[\"--rounds\",\"1\"],\"backend\":\"host\",\"fabric\":\"local\",\"threads\":true,"
                + "\"clock\":\"thread-cpu-ns\"}", Files.readString(dir.resolve("job.json")).strip());
        for (int r = 0; r < N; r++) {
            List<String> ops = lines(r).stream().filter(l -> !l.startsWith("calc ") && !l.startsWith("mark ")).toList();
            assertTrue(ops.getLast().startsWith("wait "), "rank " + r + " ends with its allreduce's wait: " + ops);
        }
    }

    @Test
    void ranksThatFailWriteWhatTheyRecordedButNoJobJson(@TempDir Path failed) throws Exception {
        assertThrows(MpiException.class, () -> LocalRanks.run(2, MpiOptions.defaults().withTrace(failed.toString()), 60,
                mpi -> {
                    throw new IllegalStateException("the program fails");
                }));
        for (int r = 0; r < 2; r++) {
            assertEquals("jspin-trace 1 rank " + r + " of 2", Files.readAllLines(Tracer.rankFile(failed, r)).getFirst());
        }
        assertFalse(Files.exists(failed.resolve(TraceJob.FILE)));
    }

    @Test
    void aTraceDirectoryThatCannotBeCreatedStopsTheRanksBeforeTheyStart(@TempDir Path tmp) throws Exception {
        Path blocked = Files.writeString(tmp.resolve("file"), "x").resolve("trace");
        MpiException e = assertThrows(MpiException.class,
                () -> LocalRanks.run(2, MpiOptions.defaults().withTrace(blocked.toString()), 60, mpi -> { }));
        assertEquals(ErrorClass.ERR_ARG, e.errorClass());
        assertTrue(e.getMessage().contains(blocked.toString()), e.getMessage());
    }

    private static String userPart(int rank) throws Exception {
        return TraceLines.userPart(lines(rank));
    }

    private static List<String> collectivePart(int rank) throws Exception {
        List<String> all = lines(rank);
        List<String> coll = new ArrayList<>();
        boolean in = false;
        for (String line : all) {
            in |= TraceLines.isCollective(line.split(" "));
            if (in) {
                coll.add(line);
            }
        }
        return coll;
    }
}
