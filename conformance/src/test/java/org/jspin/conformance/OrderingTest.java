package org.jspin.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MPI's ordering rules: messages from one source with one tag on one communicator are received in
 * the order they were sent, whatever their sizes (eager and rendezvous mixed); wildcard receives
 * take messages in the order they arrived; a communicator's messages never match another's receives.
 */
class OrderingTest {
    private static final int TAGS = 3;

    static Stream<Arguments> withProtocolsAndSeeds() {
        return Targets.withProtocols().flatMap(a -> Stream.of(11L, 12L).map(seed -> Arguments.of(a.get()[0],
                a.get()[1], seed)));
    }

    /** Message sizes that straddle the protocol switch and the chunk size of {@code nic}. */
    static long[] sizes(NicConfig nic) {
        int e = Targets.eagerLimit(nic);
        int c = Targets.chunkSize(nic);
        return new long[] {0, 1, 7, e - 1, e, e + 1, c - 1, c + 1, 2L * c + 17, 100};
    }

    /** The messages of one sender: seq -> (tag, size), drawn from {@code seed}. */
    record Plan(int[] tags, long[] sizes) {
        static Plan of(NicConfig nic, long seed, int messages) {
            Random rnd = new Random(seed);
            long[] choice = OrderingTest.sizes(nic);
            int[] tags = new int[messages];
            long[] sz = new long[messages];
            for (int i = 0; i < messages; i++) {
                tags[i] = rnd.nextInt(TAGS);
                sz[i] = choice[rnd.nextInt(choice.length)];
            }
            return new Plan(tags, sz);
        }

        long max() {
            return Arrays.stream(sizes).max().orElse(0);
        }
    }

    private static long seedOf(long seed, int source, int seq) {
        return seed * 1_000_003L + source * 10_007L + seq;
    }

    /**
     * Ranks 1 and 2 each send many messages to rank 0 with random tags and sizes, before rank 0
     * posts anything (all arrive unexpected); rank 0 receives them tag by tag and source by source,
     * in an order unlike the sending one, and each (source, tag) stream must come in sending order.
     */
    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("withProtocolsAndSeeds")
    void nonOvertakingWhenUnexpected(Target target, NicConfig nic, long seed) {
        int messages = 90;
        target.run(3, nic, mpi -> {
            Comm w = mpi.world();
            if (w.rank() != 0) {
                Plan plan = Plan.of(nic, seed + w.rank(), messages);
                List<Request> sends = new ArrayList<>();
                for (int i = 0; i < messages; i++) {
                    sends.add(w.isend(Bytes.pattern(plan.sizes[i], seedOf(seed, w.rank(), i)), plan.sizes[i],
                            Datatype.BYTE, 0, plan.tags[i]));
                }
                w.barrier();
                Request.waitAll(sends);
                return;
            }
            w.barrier();
            Plan[] plans = {null, Plan.of(nic, seed + 1, messages), Plan.of(nic, seed + 2, messages)};
            MemorySegment buf = MemorySegment.ofArray(new byte[(int) Math.max(plans[1].max(), plans[2].max())]);
            for (int tag : new int[] {2, 0, 1}) {
                for (int src : new int[] {2, 1}) {
                    for (int i = 0; i < messages; i++) {
                        if (plans[src].tags[i] == tag) {
                            Status s = w.recv(buf, buf.byteSize(), Datatype.BYTE, src, tag);
                            checkMessage(s, buf, src, tag, plans[src].sizes[i], seedOf(seed, src, i),
                                    "message " + i + " of rank " + src);
                        }
                    }
                }
            }
            assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "no message left over");
        });
    }

    /**
     * As above with every receive posted before the first message leaves: the posted receives,
     * per (source, tag), must be filled in posting order.
     */
    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("withProtocolsAndSeeds")
    void nonOvertakingWhenPosted(Target target, NicConfig nic, long seed) {
        int messages = 60;
        target.run(3, nic, mpi -> {
            Comm w = mpi.world();
            if (w.rank() != 0) {
                Plan plan = Plan.of(nic, seed + w.rank(), messages);
                w.barrier();
                for (int i = 0; i < messages; i++) {
                    // blocking and nonblocking sends mixed: order must not depend on which
                    MemorySegment data = Bytes.pattern(plan.sizes[i], seedOf(seed, w.rank(), i));
                    if (i % 2 == 0) {
                        w.send(data, plan.sizes[i], Datatype.BYTE, 0, plan.tags[i]);
                    } else {
                        w.isend(data, plan.sizes[i], Datatype.BYTE, 0, plan.tags[i]).waitFor();
                    }
                }
                return;
            }
            Plan[] plans = {null, Plan.of(nic, seed + 1, messages), Plan.of(nic, seed + 2, messages)};
            record Posted(Request request, MemorySegment buf, int src, int seq) {
            }
            List<Posted> posted = new ArrayList<>();
            for (int tag : new int[] {1, 2, 0}) {
                for (int src : new int[] {1, 2}) {
                    for (int i = 0; i < messages; i++) {
                        if (plans[src].tags[i] == tag) {
                            MemorySegment buf = MemorySegment.ofArray(new byte[(int) plans[src].max()]);
                            posted.add(new Posted(w.irecv(buf, buf.byteSize(), Datatype.BYTE, src, tag), buf, src, i));
                        }
                    }
                }
            }
            w.barrier();
            for (Posted p : posted) {
                Status s = p.request.waitFor();
                checkMessage(s, p.buf, p.src, plans[p.src].tags[p.seq], plans[p.src].sizes[p.seq],
                        seedOf(seed, p.src, p.seq), "message " + p.seq + " of rank " + p.src);
            }
        });
    }

    /** ANY_SOURCE with a given tag: whichever source comes, each source's messages stay in order. */
    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("withProtocolsAndSeeds")
    void anySourceKeepsEachSourcesOrder(Target target, NicConfig nic, long seed) {
        int messages = 60;
        target.run(3, nic, mpi -> {
            Comm w = mpi.world();
            if (w.rank() != 0) {
                Plan plan = Plan.of(nic, seed + w.rank(), messages);
                List<Request> sends = new ArrayList<>();
                for (int i = 0; i < messages; i++) {
                    sends.add(w.isend(Bytes.pattern(plan.sizes[i], seedOf(seed, w.rank(), i)), plan.sizes[i],
                            Datatype.BYTE, 0, plan.tags[i]));
                }
                Request.waitAll(sends);
                return;
            }
            Plan[] plans = {null, Plan.of(nic, seed + 1, messages), Plan.of(nic, seed + 2, messages)};
            int[][] next = new int[3][TAGS]; // per source and tag: the sequence number expected next
            int[] left = new int[TAGS];
            for (int src = 1; src <= 2; src++) {
                for (int i = 0; i < messages; i++) {
                    left[plans[src].tags[i]]++;
                }
            }
            MemorySegment buf = MemorySegment.ofArray(new byte[(int) Math.max(plans[1].max(), plans[2].max())]);
            for (int tag = 0; tag < TAGS; tag++) {
                for (; left[tag] > 0; left[tag]--) {
                    Status s = w.recv(buf, buf.byteSize(), Datatype.BYTE, Comm.ANY_SOURCE, tag);
                    int src = s.source();
                    assertTrue(src == 1 || src == 2, "source " + src);
                    int i = next[src][tag];
                    while (plans[src].tags[i] != tag) {
                        i++;
                    }
                    next[src][tag] = i + 1;
                    checkMessage(s, buf, src, tag, plans[src].sizes[i], seedOf(seed, src, i),
                            "tag " + tag + " message " + i + " of rank " + src);
                }
            }
        });
    }

    /**
     * Rank 0 lets ranks 1 and 2 send one message at a time, in a random order, and waits until each
     * has arrived (a probe on its unique tag finds it) before letting the next go; then receives
     * with ANY_SOURCE and ANY_TAG must take them exactly in that arrival order.
     */
    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("withProtocolsAndSeeds")
    void wildcardsTakeUnexpectedMessagesInArrivalOrder(Target target, NicConfig nic, long seed) {
        int messages = 40;
        long[] choice = sizes(nic);
        target.run(3, nic, mpi -> {
            Comm w = mpi.world();
            Comm ctl = w.dup(); // permissions travel here, so they never meet a wildcard receive on w
            if (w.rank() != 0) {
                senderOnCommand(w, ctl, seed);
                return;
            }
            Random rnd = new Random(seed);
            int[] src = new int[messages];
            long[] size = new long[messages];
            for (int k = 0; k < messages; k++) {
                src[k] = 1 + rnd.nextInt(2);
                size[k] = choice[rnd.nextInt(choice.length)];
                ctl.send(MemorySegment.ofArray(new long[] {k, size[k]}), 2, Datatype.LONG, src[k], 0);
                Status p = w.probe(src[k], 1000 + k);
                assertEquals(size[k], p.byteCount(), "probed size of message " + k);
            }
            stopSenders(ctl);
            long max = Arrays.stream(choice).max().orElse(0);
            MemorySegment buf = MemorySegment.ofArray(new byte[(int) max]);
            for (int k = 0; k < messages; k++) {
                Status s = w.recv(buf, max, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                assertEquals(1000 + k, s.tag(), "wildcard receive " + k + " took a message out of arrival order");
                checkMessage(s, buf, src[k], 1000 + k, size[k], seedOf(seed, src[k], k), "message " + k);
            }
        });
    }

    /**
     * Wildcard receives posted first, then messages let go one at a time: receive k (the oldest
     * posted) takes message k, and the later ones stay unmatched until their message comes.
     */
    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("withProtocolsAndSeeds")
    void postedWildcardsAreFilledInPostingOrder(Target target, NicConfig nic, long seed) {
        int messages = 30;
        long[] choice = sizes(nic);
        long max = Arrays.stream(choice).max().orElse(0);
        target.run(3, nic, mpi -> {
            Comm w = mpi.world();
            Comm ctl = w.dup();
            if (w.rank() != 0) {
                senderOnCommand(w, ctl, seed);
                return;
            }
            Request[] r = new Request[messages];
            MemorySegment[] bufs = new MemorySegment[messages];
            for (int k = 0; k < messages; k++) {
                bufs[k] = MemorySegment.ofArray(new byte[(int) max]);
                r[k] = w.irecv(bufs[k], max, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
            }
            Random rnd = new Random(seed);
            for (int k = 0; k < messages; k++) {
                int src = 1 + rnd.nextInt(2);
                long size = choice[rnd.nextInt(choice.length)];
                ctl.send(MemorySegment.ofArray(new long[] {k, size}), 2, Datatype.LONG, src, 0);
                Status s = r[k].waitFor();
                checkMessage(s, bufs[k], src, 1000 + k, size, seedOf(seed, src, k), "receive " + k);
                for (int j = k + 1; j < messages; j++) {
                    assertFalse(r[j].isDone(), "receive " + j + " completed before its message was sent");
                }
            }
            stopSenders(ctl);
        });
    }

    /**
     * A message matches the first posted receive that accepts it, wildcard or not: receives
     * (1, ANY_TAG), (ANY_SOURCE, ANY_TAG), (ANY_SOURCE, 5) posted in this order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.jspin.conformance.Targets#targets")
    void firstPostedMatchingReceiveWins(Target target) {
        target.run(3, mpi -> {
            Comm w = mpi.world();
            Comm ctl = w.dup();
            if (w.rank() != 0) {
                int[] cmd = new int[2];
                while (true) {
                    ctl.recv(MemorySegment.ofArray(cmd), 2, Datatype.INT, 0, 0);
                    if (cmd[0] < 0) {
                        return;
                    }
                    w.send(MemorySegment.ofArray(new int[] {w.rank() * 100 + cmd[1]}), 1, Datatype.INT, 0, cmd[0]);
                }
            }
            int[][] got = new int[3][1];
            Request fromOne = w.irecv(MemorySegment.ofArray(got[0]), 1, Datatype.INT, 1, Comm.ANY_TAG);
            Request any = w.irecv(MemorySegment.ofArray(got[1]), 1, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            Request tag5 = w.irecv(MemorySegment.ofArray(got[2]), 1, Datatype.INT, Comm.ANY_SOURCE, 5);
            ctl.send(MemorySegment.ofArray(new int[] {5, 1}), 2, Datatype.INT, 2, 0); // rank 2, tag 5
            Status s = any.waitFor();
            assertEquals(2, s.source());
            assertEquals(201, got[1][0]);
            assertFalse(fromOne.isDone());
            assertFalse(tag5.isDone());
            ctl.send(MemorySegment.ofArray(new int[] {5, 2}), 2, Datatype.INT, 1, 0); // rank 1, tag 5
            s = fromOne.waitFor();
            assertEquals(5, s.tag());
            assertEquals(102, got[0][0]);
            assertFalse(tag5.isDone());
            ctl.send(MemorySegment.ofArray(new int[] {5, 3}), 2, Datatype.INT, 1, 0);
            s = tag5.waitFor();
            assertEquals(1, s.source());
            assertEquals(103, got[2][0]);
            for (int r = 1; r <= 2; r++) {
                ctl.send(MemorySegment.ofArray(new int[] {-1, 0}), 2, Datatype.INT, r, 0);
            }
        });
    }

    /**
     * A dup'ed communicator has its own matching context: its messages never match the parent's
     * receives (even wildcard ones) and the parent's never match its receives, whichever is posted
     * or sent first; user tags equal to the collectives' tags do not disturb collectives either.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("withProtocolsArg")
    void dupAndSplitCommunicatorsDoNotMatchTheParent(Target target, NicConfig nic) {
        long big = 3L * Targets.chunkSize(nic); // rendezvous under every setting
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            Comm dup = w.dup();
            Comm split = w.split(0, -w.rank()); // same group, reversed, own context
            int peer = 1 - w.rank();
            int splitPeer = 1 - split.rank();
            assertEquals(w.rank(), 1 - split.rank(), "key order reverses the ranks");
            if (w.rank() == 0) {
                for (long size : new long[] {4, big}) {
                    // nonblocking: the peer takes the world message before the other two
                    Request.waitAll(dup.isend(Bytes.pattern(size, 1), size, Datatype.BYTE, peer, 7),
                            split.isend(Bytes.pattern(size, 3), size, Datatype.BYTE, splitPeer, 7),
                            w.isend(Bytes.pattern(size, 2), size, Datatype.BYTE, peer, 7));
                    w.barrier(); // the next size's messages leave only when the peer is done with these
                }
                // the other way: receives on dup and world posted first, world message sent first
                w.barrier();
                w.send(Bytes.pattern(16, 4), 16, Datatype.BYTE, peer, 3);
                dup.send(Bytes.pattern(16, 5), 16, Datatype.BYTE, peer, 3);
                // user messages with every collective tag, sent before collectives run on w
                for (int tag = 0; tag <= 10; tag++) {
                    w.send(MemorySegment.ofArray(new int[] {tag}), 1, Datatype.INT, peer, tag);
                }
            } else {
                for (long size : new long[] {4, big}) {
                    MemorySegment buf = MemorySegment.ofArray(new byte[(int) big]);
                    Status s = w.recv(buf, big, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    assertEquals(size, s.byteCount(), "world receive got the world message");
                    Bytes.assertSameBytes(Bytes.pattern(size, 2), buf.asSlice(0, size), "world message");
                    assertNull(w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "the dup and split messages are not the world's");
                    s = dup.recv(buf, big, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    Bytes.assertSameBytes(Bytes.pattern(size, 1), buf.asSlice(0, s.byteCount()), "dup message");
                    s = split.recv(buf, big, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    assertEquals(splitPeer, s.source());
                    Bytes.assertSameBytes(Bytes.pattern(size, 3), buf.asSlice(0, s.byteCount()), "split message");
                    w.barrier();
                }
                MemorySegment onDup = MemorySegment.ofArray(new byte[16]);
                MemorySegment onWorld = MemorySegment.ofArray(new byte[16]);
                Request d = dup.irecv(onDup, 16, Datatype.BYTE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                Request ww = w.irecv(onWorld, 16, Datatype.BYTE, Comm.ANY_SOURCE, 3);
                w.barrier();
                Request.waitAll(d, ww);
                Bytes.assertSameBytes(Bytes.pattern(16, 5), onDup, "posted dup receive");
                Bytes.assertSameBytes(Bytes.pattern(16, 4), onWorld, "posted world receive");
            }
            // collectives on w while user messages with their tags wait unexpected
            int[] x = {w.rank() == 0 ? 77 : 0};
            w.barrier();
            w.bcast(MemorySegment.ofArray(x), 1, Datatype.INT, 0);
            assertEquals(77, x[0]);
            if (w.rank() == 1) {
                for (int tag = 0; tag <= 10; tag++) {
                    int[] v = new int[1];
                    Status s = w.recv(MemorySegment.ofArray(v), 1, Datatype.INT, 0, Comm.ANY_TAG);
                    assertEquals(tag, s.tag());
                    assertEquals(tag, v[0]);
                }
            }
        });
    }

    static Stream<Arguments> withProtocolsArg() {
        return Targets.withProtocols();
    }

    /** Senders of the arrival-order tests: on each command (k, size) from rank 0, send message k. */
    private static void senderOnCommand(Comm w, Comm ctl, long seed) {
        List<Request> sends = new ArrayList<>();
        long[] cmd = new long[2];
        while (true) {
            ctl.recv(MemorySegment.ofArray(cmd), 2, Datatype.LONG, 0, 0);
            if (cmd[0] < 0) {
                break;
            }
            int k = (int) cmd[0];
            sends.add(w.isend(Bytes.pattern(cmd[1], seedOf(seed, w.rank(), k)), cmd[1], Datatype.BYTE, 0, 1000 + k));
        }
        Request.waitAll(sends);
    }

    private static void stopSenders(Comm ctl) {
        for (int r = 1; r < ctl.size(); r++) {
            ctl.send(MemorySegment.ofArray(new long[] {-1, 0}), 2, Datatype.LONG, r, 0);
        }
    }

    private static void checkMessage(Status s, MemorySegment buf, int src, int tag, long size, long seed, String what) {
        assertNotNull(s, what);
        assertEquals(src, s.source(), what + ": source");
        assertEquals(tag, s.tag(), what + ": tag");
        assertEquals(size, s.byteCount(), what + ": size (a message overtook another)");
        Bytes.assertSameBytes(Bytes.pattern(size, seed), buf.asSlice(0, size), what + ": content");
    }
}
