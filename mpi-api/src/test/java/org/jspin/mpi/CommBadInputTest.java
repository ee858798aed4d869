package org.jspin.mpi;

import static org.jspin.mpi.Expect.error;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.mpi.op.Ops;
import org.jspin.nic.Job;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Test;

/** Communicators, topologies, options and the runner: each bad argument has its error class. */
class CommBadInputTest {
    @Test
    void splitAndCartesianArgumentsAreChecked() {
        LocalRanks.run(4, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            error(ErrorClass.ERR_ARG, () -> w.split(-1, 0), "-1");
            error(ErrorClass.ERR_ARG, () -> w.split(Integer.MIN_VALUE, 0), Integer.toString(Integer.MIN_VALUE));
            error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {3, 2}, new boolean[2], false), "[3, 2]", "6", "4");
            error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {0}, new boolean[1], false), "0");
            error(ErrorClass.ERR_DIMS, () -> w.cartCreate(new int[] {2, -2}, new boolean[2], false), "-2");
            error(ErrorClass.ERR_RANK, () -> w.worldRank(4), "4");

            // UNDEFINED is the one negative color allowed
            Comm none = w.split(w.rank() == 3 ? Comm.UNDEFINED : 0, -w.rank());
            if (w.rank() == 3) {
                assertNull(none);
            } else {
                assertEquals(3, none.size());
                assertEquals(2 - w.rank(), none.rank()); // ordered by key
                none.free();
            }

            CartComm cart = w.cartCreate(new int[] {2, 2}, new boolean[] {true, false}, false);
            error(ErrorClass.ERR_DIMS, () -> cart.shift(2, 1), "2");
            error(ErrorClass.ERR_DIMS, () -> cart.shift(-1, 1), "-1");
            error(ErrorClass.ERR_RANK, () -> cart.coords(4), "4");
            error(ErrorClass.ERR_RANK, () -> cart.coords(-1), "-1");
            error(ErrorClass.ERR_ARG, () -> cart.rankOf(0, 2), "2"); // dimension 1 is not periodic
            error(ErrorClass.ERR_ARG, () -> cart.rankOf(0), "[0]");
            assertEquals(cart.rankOf(1, 1), cart.rankOf(-1, 1)); // dimension 0 wraps
            CartComm.Shift s = cart.shift(1, 1);
            assertEquals(cart.coords()[1] == 0 ? Comm.PROC_NULL : cart.rank() - 1, s.source());

            // a grid over fewer ranks than the communicator: the rest get null
            CartComm line = w.cartCreate(new int[] {3}, new boolean[1], false);
            assertEquals(w.rank() == 3, line == null);
            if (line != null) {
                line.free();
            }
            cart.free();
            error(ErrorClass.ERR_COMM, () -> cart.shift(0, 1), "freed");
            error(ErrorClass.ERR_COMM, () -> cart.coords(), "freed");
            error(ErrorClass.ERR_COMM, () -> cart.rankOf(0, 0), "freed");
        });
    }

    @Test
    void aFreedCommunicatorRefusesEveryCall() {
        LocalRanks.run(2, MpiOptions.defaults(), 60, mpi -> {
            Comm w = mpi.world();
            Comm d = w.dup();
            assertFalse(d.isFreed());
            d.free();
            assertTrue(d.isFreed());
            MemorySegment b = MemorySegment.ofArray(new int[4]);
            int peer = 1 - w.rank();
            String f = "freed";
            error(ErrorClass.ERR_COMM, () -> d.isend(b, 1, Datatype.INT, peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.send(b, 1, Datatype.INT, peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.irecv(b, 1, Datatype.INT, peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.recv(b, 1, Datatype.INT, peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.sendrecv(b, 1, Datatype.INT, peer, 0, b, 1, Datatype.INT, peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.iprobe(peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.probe(peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.mprobe(peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.improbe(peer, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.isend(b, 1, Datatype.INT, Comm.PROC_NULL, 0), f);
            error(ErrorClass.ERR_COMM, d::barrier, f);
            error(ErrorClass.ERR_COMM, () -> d.bcast(b, 1, Datatype.INT, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.allreduce(b, b, 1, Datatype.INT, Ops.SUM), f);
            error(ErrorClass.ERR_COMM, () -> d.reduce(b, b, 1, Datatype.INT, Ops.SUM, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.gather(b, 1, Datatype.INT, b, 1, Datatype.INT, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.scatter(b, 1, Datatype.INT, b, 1, Datatype.INT, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.allgather(b, 1, Datatype.INT, b, 1, Datatype.INT), f);
            error(ErrorClass.ERR_COMM, () -> d.alltoall(b, 1, Datatype.INT, b, 1, Datatype.INT), f);
            error(ErrorClass.ERR_COMM, d::dup, f);
            error(ErrorClass.ERR_COMM, () -> d.split(0, 0), f);
            error(ErrorClass.ERR_COMM, () -> d.cartCreate(new int[] {2}, new boolean[1], false), f);
            error(ErrorClass.ERR_COMM, d::free, f);
            error(ErrorClass.ERR_COMM, w::free, "world");
            // the world and a fresh dup still work, and a freed context is reused without confusion
            Comm e = w.dup();
            int[] x = {w.rank() == 0 ? 5 : 0};
            e.bcast(MemorySegment.ofArray(x), 1, Datatype.INT, 0);
            assertEquals(5, x[0]);
            e.free();
        });
    }

    @Test
    void callsAfterFinalizeFail() {
        Mpi mpi = Mpi.init(MpiOptions.defaults());
        Comm w = mpi.world();
        int[] x = {3};
        w.sendrecv(MemorySegment.ofArray(x), 1, Datatype.INT, 0, 1, MemorySegment.ofArray(new int[1]), 1,
                Datatype.INT, 0, 1);
        mpi.close();
        assertTrue(mpi.finalized());
        error(ErrorClass.ERR_OTHER, () -> w.send(MemorySegment.ofArray(x), 1, Datatype.INT, 0, 1), "finalized");
        error(ErrorClass.ERR_OTHER, w::barrier, "finalized");
        error(ErrorClass.ERR_OTHER, () -> w.iprobe(0, 0), "finalized");
        mpi.close(); // idempotent
        mpi.abort();
    }

    @Test
    void unknownBackendOrFabricIsNamedWithTheAvailableOnes() {
        AtomicInteger bodies = new AtomicInteger();
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(2, MpiOptions.defaults().withBackend("warp-drive"), 10,
                mpi -> bodies.incrementAndGet()), "warp-drive", "host");
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(2, MpiOptions.defaults().withFabric("carrier-pigeon"), 10,
                mpi -> bodies.incrementAndGet()), "carrier-pigeon", "local");
        error(ErrorClass.ERR_ARG, () -> Mpi.init(MpiOptions.defaults().withBackend("warp-drive")), "warp-drive",
                "host");
        error(ErrorClass.ERR_ARG, () -> Mpi.init(MpiOptions.defaults().withFabric("carrier-pigeon")),
                "carrier-pigeon", "local");
        assertEquals(0, bodies.get(), "no rank body runs when the job cannot start");

        error(ErrorClass.ERR_ARG, () -> MpiOptions.defaults().withBackend(null), "backend", "null");
        error(ErrorClass.ERR_ARG, () -> MpiOptions.defaults().withFabric(" "), "fabric", "blank");
        error(ErrorClass.ERR_ARG, () -> MpiOptions.defaults().withNic(null), "NIC");
        error(ErrorClass.ERR_ARG, () -> MpiOptions.defaults().withMeters(null), "meter");
    }

    @Test
    void badNicSettingsAreNamed() {
        NicConfig d = NicConfig.DEFAULT;
        error(ErrorClass.ERR_ARG, () -> d.withEagerLimit(-2), "-2");
        error(ErrorClass.ERR_ARG, () -> d.withChunkSize(63), "63");
        NicConfig chunked = d.withChunkSize(4096);
        error(ErrorClass.ERR_ARG, () -> chunked.withEagerLimit(4097), "4097");
        error(ErrorClass.ERR_ARG, () -> chunked.withRtsPayload(4097), "4097");
        error(ErrorClass.ERR_ARG, () -> d.withChunkSize(-2), "-2");
        error(ErrorClass.ERR_ARG, () -> d.withPackets(7), "7");
        error(ErrorClass.ERR_ARG, () -> d.withPackets((1 << 15) + 1), Integer.toString((1 << 15) + 1));
        // valid on its own, but more than the in-JVM fabric carries in a packet: found as the ranks start
        NicConfig huge = d.withChunkSize(64 << 20);
        AtomicInteger bodies = new AtomicInteger();
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(2, MpiOptions.defaults().withNic(huge), 10,
                mpi -> bodies.incrementAndGet()), Integer.toString(64 << 20));
        assertEquals(0, bodies.get());
    }

    @Test
    void runnerAndJoinArgumentsAreChecked() {
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(0, MpiOptions.defaults(), 10, mpi -> { }), "0");
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(-3, MpiOptions.defaults(), 10, mpi -> { }), "-3");
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(2, MpiOptions.defaults(), -1, mpi -> { }), "-1");
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(2, MpiOptions.defaults(), 10, null), "null");
        error(ErrorClass.ERR_ARG, () -> LocalRanks.run(2, null, 10, mpi -> { }), "null");
        Job job = new Job("bad-join", 2);
        error(ErrorClass.ERR_RANK, () -> Mpi.join(job, 2, MpiOptions.defaults()), "2");
        error(ErrorClass.ERR_RANK, () -> Mpi.join(job, -1, MpiOptions.defaults()), "-1");
        error(ErrorClass.ERR_ARG, () -> Mpi.join(null, 0, MpiOptions.defaults()), "job");
        error(ErrorClass.ERR_ARG, () -> Mpi.join(job, 0, null), "options");
        error(ErrorClass.ERR_ARG, () -> new Job(" ", 2), "' '");
        error(ErrorClass.ERR_ARG, () -> new Job("j", 0), "0");
        // one rank is a valid job
        int[] seen = new int[1];
        LocalRanks.run(1, MpiOptions.defaults(), 10, mpi -> seen[0] = mpi.size());
        assertArrayEquals(new int[] {1}, seen);
    }

    @Test
    void statusQueriesNeedAType() {
        LocalRanks.run(1, MpiOptions.defaults(), 10, mpi -> {
            Comm w = mpi.world();
            Status s = w.sendrecv(MemorySegment.ofArray(new int[] {1, 2}), 2, Datatype.INT, 0, 0,
                    MemorySegment.ofArray(new int[2]), 2, Datatype.INT, 0, 0);
            assertEquals(2, s.count(Datatype.INT));
            error(ErrorClass.ERR_TYPE, () -> s.count(null), "null");
            error(ErrorClass.ERR_TYPE, () -> s.elements(null), "null");
        });
    }
}
