package org.jspin.conformance;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.CartComm;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Message;
import org.jspin.mpi.Mpi;
import org.jspin.mpi.Request;
import org.jspin.mpi.Status;
import org.jspin.mpi.op.Ops;
import org.jspin.mpi.op.ReduceOp;
import org.jspin.mpi.topo.DimsCreate;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * The communication calls against random invalid arguments. Each rank of a three-rank job on the
 * in-JVM fabric makes, from its own seeded generator, a stream of calls of the MPI API (sends,
 * receives, sendrecv with and without an origin, probes, matched receives, request arrays, status
 * queries, communicator and Cartesian calls, {@code MPI_Dims_create}, every collective, reduction
 * operators) in which one or more arguments are invalid: negative, huge or overflowing counts,
 * ranks, tags and roots out of range, null, uncommitted or ill-placed datatypes, null, closed,
 * confined, read-only or too small buffers, bad origins and displacements, ill-sized arrays, null
 * or inapplicable operators, bad dimensions, directions and coordinates, freed communicators.
 *
 * <p>Every such call must throw an {@link MpiException} (nothing else, and within
 * {@link #HANG_SECONDS}: a watchdog interrupts a call that hangs) whose error class is the one of
 * an invalid argument it was given and whose message names that argument's value; no byte of a
 * buffer it was given, nor of the guard bytes around it, may change. A bad collective call is made
 * while no other rank calls that collective: one that communicated before it failed would block.
 * Correct Cartesian shifts by extreme displacements are checked against a computation in longs
 * along the way. After each batch every rank makes correct calls and checks their results: a
 * marker message around the ring is the first message each rank gets (no bad send went out) and
 * lands in a receive posted after the batch (no bad receive was posted to take it), a sendrecv and
 * a collective give the right values, no message is left over in any communicator, a receive
 * posted before the batch is still pending, and the buffers the bad calls were given still hold
 * their pattern. A failure names the seed, the rank, the call's number and the call with its
 * arguments.
 *
 * <p>Three seeds on every backend on the in-JVM fabric, each about 11,000 invalid calls (three
 * ranks, 100 batches of 30 generated calls, some of which make several).
 */
class CallFuzzTest {
    private static final long[] SEEDS = {0xCA11_0001L, 0xCA11_0002L, 0xCA11_0003L};
    private static final int RANKS = 3;
    private static final int BATCHES = 100;
    private static final int CALLS_PER_BATCH = 30;
    /** A call that takes longer than this has hung. */
    private static final long HANG_SECONDS = 10;
    private static final int GUARD = 16;
    private static final byte PATTERN = Bytes.SENTINEL;
    private static final int MARKER_TAG = 7;
    private static final int PENDING_TAG = 8;
    private static final int SELF_TAG = 9;
    private static final int RING_TAG = 10;

    private static final List<Datatype> NAMED = List.of(Datatype.BYTE, Datatype.SHORT, Datatype.INT, Datatype.LONG,
            Datatype.FLOAT, Datatype.DOUBLE);
    private static final List<Datatype> DERIVED = List.of(
            Datatype.contiguous(3, Datatype.INT).commit(),
            Datatype.vector(3, 1, 2, Datatype.INT).commit(),
            Datatype.vector(2, 2, 3, Datatype.DOUBLE).commit(),
            Datatype.indexed(new long[] {1, 2}, new long[] {0, 3}, Datatype.INT).commit(),
            Datatype.struct(new long[] {1, 1}, new long[] {0, 8}, new Datatype[] {Datatype.INT, Datatype.DOUBLE})
                    .commit(),
            Datatype.resized(0, 12, Datatype.INT).commit());
    private static final List<Datatype> ALL = Stream.concat(NAMED.stream(), DERIVED.stream()).toList();
    /** A committed type whose type map starts 16 bytes below its origin: no buffer holds it at origin 0..8. */
    private static final Datatype BELOW_ORIGIN = Datatype.hindexed(new long[] {1, 1}, new long[] {-16, 0},
            Datatype.INT).commit();
    private static final List<ReduceOp> PREDEFINED = List.of(Ops.SUM, Ops.PROD, Ops.MIN, Ops.MAX);
    /** A user operator on any type that no invalid call may reach. */
    private static final ReduceOp UNREACHABLE = Ops.user("unreachable", (in, inout, count, type) -> {
        throw new AssertionError("the function of a user operator ran in a call with an invalid argument");
    }, true);

    static Stream<Arguments> cases() {
        List<Target> local = Targets.all().stream().filter(t -> !t.processes() && t.fabric().equals("local")).toList();
        if (local.isEmpty()) {
            local = List.of(new Target(Targets.all().getFirst().backend(), "local"));
        }
        return local.stream().flatMap(t -> LongStream.of(SEEDS)
                .mapToObj(s -> Arguments.of(Named.of(t.toString(), t), s)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void invalidCallsFailWithTheirErrorClassAndLeaveNothingBehind(Target target, long seed) {
        Map<String, LongAdder> kinds = new ConcurrentSkipListMap<>();
        Map<ErrorClass, LongAdder> classes = new ConcurrentSkipListMap<>();
        long start = System.nanoTime();
        try (Watchdog dog = new Watchdog(RANKS)) {
            target.run(RANKS, mpi -> new Rank(seed, mpi, dog, kinds, classes).run());
        }
        long calls = kinds.values().stream().mapToLong(LongAdder::sum).sum();
        System.out.printf("CallFuzzTest %s seed %d: %,d invalid calls of %d kinds, %d valid rounds, %d ms; errors %s%n",
                target, seed, calls, kinds.size(), BATCHES, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                classes);
        assertTrue(calls >= (long) RANKS * BATCHES * CALLS_PER_BATCH, "invalid calls made: " + calls);
    }

    /** What one invalid argument must produce: its error class, and words the message must contain. */
    private record Fault(ErrorClass errorClass, List<String> mentions) {
        boolean matches(MpiException e) {
            return e.errorClass() == errorClass && mentions.stream().allMatch(e.getMessage()::contains);
        }

        @Override
        public String toString() {
            return errorClass + " naming " + mentions;
        }
    }

    /** One generated call: its name and arguments (for messages), its faults, the buffers it was given. */
    private static final class Call {
        final String name;
        final List<String> args = new ArrayList<>();
        final List<Fault> faults = new ArrayList<>();
        final List<Guarded> buffers = new ArrayList<>();

        Call(String name) {
            this.name = name;
        }

        Call arg(String a) {
            args.add(a);
            return this;
        }

        Call fault(ErrorClass c, String... mentions) {
            faults.add(new Fault(c, List.of(mentions)));
            return this;
        }

        @Override
        public String toString() {
            return name + "(" + String.join("; ", args) + ")";
        }
    }

    /** A heap buffer of {@code len} bytes between guard bytes, every byte {@link #PATTERN}. */
    private static final class Guarded {
        final byte[] bytes;
        final MemorySegment seg;

        Guarded(long len) {
            bytes = new byte[Math.toIntExact(len + 2 * GUARD)];
            Arrays.fill(bytes, PATTERN);
            seg = MemorySegment.ofArray(bytes).asSlice(GUARD, len);
        }

        void assertUntouched(String where) {
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] != PATTERN) {
                    throw new AssertionFailedError(where + ": byte " + (i - GUARD) + " of a " + seg.byteSize()
                            + "-byte buffer it was given was written (guards: bytes -" + GUARD + "..-1 and "
                            + seg.byteSize() + ".." + (seg.byteSize() + GUARD - 1) + ")");
                }
            }
        }
    }

    /** Interrupts a rank whose call takes longer than {@link #HANG_SECONDS}, and remembers which call hung. */
    private static final class Watchdog implements AutoCloseable {
        private record Doing(Thread thread, Object what, long since) {
        }

        private final AtomicReferenceArray<Doing> doing;
        private final AtomicReferenceArray<String> hung;
        private final Thread thread;
        private volatile boolean closed;

        Watchdog(int ranks) {
            doing = new AtomicReferenceArray<>(ranks);
            hung = new AtomicReferenceArray<>(ranks);
            thread = Thread.ofPlatform().daemon().name("call-fuzz-watchdog").start(this::watch);
        }

        void begin(int rank, Object what) {
            doing.set(rank, new Doing(Thread.currentThread(), what, System.nanoTime()));
        }

        void end(int rank) {
            doing.set(rank, null);
        }

        String hung(int rank) {
            return hung.get(rank);
        }

        private void watch() {
            long limit = TimeUnit.SECONDS.toNanos(HANG_SECONDS);
            while (!closed) {
                for (int r = 0; r < doing.length(); r++) {
                    Doing d = doing.get(r);
                    if (d != null && System.nanoTime() - d.since > limit && hung.compareAndSet(r, null, d.what.toString())) {
                        d.thread.interrupt();
                    }
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        @Override
        public void close() {
            closed = true;
            thread.interrupt();
        }
    }

    /** A typed buffer argument: buffer, origin, count, type. */
    private record Side(MemorySegment buf, long origin, long count, Datatype type) {
    }

    /** A count argument; {@code huge}: larger than the buffer holds, with no overflow. */
    private record Count(long value, long base, boolean huge) {
    }

    /** A buffer with a count and displacement per rank, and one type or a type per rank. */
    private record Blocks(MemorySegment buf, long[] counts, long[] displs, Datatype type, Datatype[] types) {
    }

    private enum BufferFault { TOO_SMALL, NULL, CLOSED, CONFINED, READ_ONLY, BAD_ORIGIN }

    /** One rank's fuzzing: its generator, communicators and special buffers. */
    private static final class Rank {
        private final long seed;
        private final Random rnd;
        private final Comm world;
        private final int rank;
        private final int n;
        private final Watchdog dog;
        private final Map<String, LongAdder> kinds;
        private final Map<ErrorClass, LongAdder> classes;
        private final List<Guarded> watched = new ArrayList<>();
        private Comm dup;
        private Comm freed;
        private CartComm ring;
        private CartComm grid;
        private CartComm freedCart;
        private MemorySegment closed;
        private MemorySegment confined;
        private Request pending;
        private long calls;

        Rank(long seed, Mpi mpi, Watchdog dog, Map<String, LongAdder> kinds, Map<ErrorClass, LongAdder> classes) {
            this.seed = seed;
            this.world = mpi.world();
            this.rank = world.rank();
            this.n = world.size();
            this.rnd = new Random(seed * 1_000_003L + rank);
            this.dog = dog;
            this.kinds = kinds;
            this.classes = classes;
        }

        void run() {
            dup = world.dup();
            freed = world.dup();
            freed.free();
            ring = world.cartCreate(new int[] {n}, new boolean[] {true}, false);
            grid = world.cartCreate(new int[] {1, n}, new boolean[] {false, true}, false);
            freedCart = world.cartCreate(new int[] {n}, new boolean[] {false}, false);
            freedCart.free();
            try (Arena shared = Arena.ofShared()) {
                closed = shared.allocate(64);
            }
            try (Arena arena = Arena.ofConfined()) {
                confined = arena.allocate(64);
                confined.fill(PATTERN);
                for (int b = 0; b < BATCHES; b++) {
                    Guarded pendingBuf = new Guarded(4);
                    watched.add(pendingBuf);
                    pending = world.irecv(pendingBuf.seg, 1, Datatype.INT, rank, PENDING_TAG); // never sent
                    for (int i = 0; i < CALLS_PER_BATCH; i++) {
                        randomCall();
                    }
                    validRound(b);
                }
                for (long i = 0; i < confined.byteSize(); i++) {
                    assertEquals(PATTERN, confined.get(JAVA_BYTE, i),
                            where("the end") + ": byte " + i + " of the confined buffer was written");
                }
            }
            dup.free();
            ring.free();
            grid.free();
        }

        private void randomCall() {
            int k = rnd.nextInt(100);
            if (k < 30) {
                pointToPoint();
            } else if (k < 36) {
                probe();
            } else if (k < 39) {
                matched();
            } else if (k < 44) {
                requests();
            } else if (k < 52) {
                communicators();
            } else if (k < 58) {
                cartesian();
            } else if (k < 92) {
                collective();
            } else {
                ops();
            }
        }

        // ---- checking ---------------------------------------------------------------------------

        private String where(Object what) {
            return "seed " + seed + ", rank " + rank + ", call " + calls + ": " + what;
        }

        /** Makes {@code call}, which must fail with one of its faults and write nothing. */
        private void expectFailure(Call call, Executable body) {
            calls++;
            kinds.computeIfAbsent(call.name, x -> new LongAdder()).increment();
            if (call.faults.isEmpty()) {
                throw new AssertionFailedError(where(call) + ": the generator made no invalid argument");
            }
            Throwable thrown = null;
            dog.begin(rank, call);
            try {
                body.execute();
            } catch (Throwable t) {
                thrown = t;
            } finally {
                dog.end(rank);
            }
            String where = where(call);
            if (dog.hung(rank) != null) {
                throw new AssertionFailedError(where + " hung (interrupted after " + HANG_SECONDS + " s)", thrown);
            }
            if (thrown == null) {
                throw new AssertionFailedError(where + " returned normally; expected " + call.faults);
            }
            if (!(thrown instanceof MpiException e)) {
                throw new AssertionFailedError(where + " threw " + thrown + "; expected an MpiException: "
                        + call.faults, thrown);
            }
            if (call.faults.stream().noneMatch(f -> f.matches(e))) {
                throw new AssertionFailedError(where + " threw " + e.getMessage() + "; expected one of " + call.faults,
                        e);
            }
            for (Guarded g : call.buffers) {
                g.assertUntouched(where);
            }
            watched.addAll(call.buffers);
            classes.computeIfAbsent(e.errorClass(), x -> new LongAdder()).increment();
        }

        /** Runs a correct call (watched for hangs); any failure names the seed and what was done. */
        private <T> T valid(String what, Callable<T> body) {
            dog.begin(rank, what);
            try {
                return body.call();
            } catch (Throwable t) {
                String hung = dog.hung(rank) != null ? " (hung, interrupted after " + HANG_SECONDS + " s)" : "";
                throw new AssertionFailedError(where(what) + hung + ": " + t, t);
            } finally {
                dog.end(rank);
            }
        }

        // ---- argument generators ----------------------------------------------------------------

        private <T> T pick(List<T> from) {
            return from.get(rnd.nextInt(from.size()));
        }

        /**
         * @return which of the slots to make invalid: each with its probability, and at least one
         *         (of those with a probability above 0) unless {@code have}, a fault made already
         */
        private boolean[] choose(boolean have, double... p) {
            boolean[] m = new boolean[p.length];
            boolean any = have;
            for (int i = 0; i < p.length; i++) {
                m[i] = p[i] > 0 && rnd.nextDouble() < p[i];
                any |= m[i];
            }
            if (!any) {
                double total = Arrays.stream(p).sum();
                double x = rnd.nextDouble() * total;
                int i = 0;
                while (p[i] <= 0 || x >= p[i]) {
                    x -= p[i];
                    i++;
                }
                m[i] = true;
            }
            return m;
        }

        private static String name(Datatype t) {
            if (t == null) {
                return "null";
            }
            if (t == BELOW_ORIGIN) {
                return "hindexed{-16, 0} of int (below its origin)";
            }
            String s = t.toString();
            return (t.isCommitted() ? "" : "uncommitted ") + (s.length() <= 80 ? s : s.substring(0, 77) + "...");
        }

        private Datatype uncommitted() {
            return switch (rnd.nextInt(3)) {
                case 0 -> Datatype.vector(2, 1, 3, Datatype.INT);
                case 1 -> Datatype.contiguous(2, Datatype.SHORT);
                default -> Datatype.indexed(new long[] {2}, new long[] {1}, Datatype.LONG);
            };
        }

        /** @return bytes from the origin to the end of {@code k} elements (types whose map starts at or after 0) */
        private static long span(Datatype t, long k) {
            return k == 0 ? 0 : (k - 1) * t.extent() + t.trueUb();
        }

        private long negative() {
            return switch (rnd.nextInt(5)) {
                case 0 -> -1;
                case 1 -> -2 - rnd.nextInt(1000);
                case 2 -> Long.MIN_VALUE;
                case 3 -> Integer.MIN_VALUE;
                default -> -(1L << 40);
            };
        }

        private int badRank(int size, boolean receive) {
            return switch (rnd.nextInt(receive ? 6 : 7)) {
                case 0 -> size;
                case 1 -> size + 1 + rnd.nextInt(1000);
                case 2 -> Integer.MAX_VALUE;
                case 3 -> Integer.MIN_VALUE;
                case 4 -> -3 - rnd.nextInt(1000);
                case 5 -> 1 << 18; // one past the largest rank the match bits hold
                default -> Comm.ANY_SOURCE; // a wildcard, which a send cannot take
            };
        }

        private int badTag(boolean receive) {
            return switch (rnd.nextInt(receive ? 2 : 3)) {
                case 0 -> -2 - rnd.nextInt(1000);
                case 1 -> Integer.MIN_VALUE;
                default -> Comm.ANY_TAG; // a wildcard, which a send cannot take
            };
        }

        private int badRoot(int size) {
            return switch (rnd.nextInt(6)) {
                case 0 -> size;
                case 1 -> size + 1 + rnd.nextInt(1000);
                case 2 -> -1;
                case 3 -> Comm.PROC_NULL;
                case 4 -> Integer.MIN_VALUE;
                default -> Integer.MAX_VALUE;
            };
        }

        /** @return a communicator every rank is in, or (bad) a freed one */
        private Comm comm(Call call, boolean bad) {
            Comm c;
            if (bad) {
                c = rnd.nextBoolean() ? freed : freedCart;
                call.fault(ErrorClass.ERR_COMM, "freed");
            } else {
                c = switch (rnd.nextInt(4)) {
                    case 0, 1 -> world;
                    case 2 -> dup;
                    default -> ring;
                };
            }
            call.arg("comm=" + c + (bad ? " (freed)" : ""));
            return c;
        }

        private int peer(Call call, String role, Comm c, boolean bad, boolean receive) {
            int r;
            if (bad) {
                r = badRank(c.size(), receive);
                call.fault(ErrorClass.ERR_RANK, "got " + r);
            } else if (rnd.nextInt(8) == 0) {
                r = Comm.PROC_NULL;
            } else if (receive && rnd.nextInt(4) == 0) {
                r = Comm.ANY_SOURCE;
            } else {
                r = rnd.nextInt(c.size());
            }
            call.arg(role + "=" + r);
            return r;
        }

        private int tag(Call call, String role, boolean bad, boolean receive) {
            int t;
            if (bad) {
                t = badTag(receive);
                call.fault(ErrorClass.ERR_TAG, "got " + t);
            } else if (receive && rnd.nextInt(4) == 0) {
                t = Comm.ANY_TAG;
            } else {
                t = rnd.nextInt(6) == 0 ? Comm.TAG_UB : 100 + rnd.nextInt(1000);
            }
            call.arg(role + "=" + t);
            return t;
        }

        private int root(Call call, Comm c, boolean bad) {
            int r = bad ? badRoot(c.size()) : rnd.nextInt(c.size());
            if (bad) {
                call.fault(ErrorClass.ERR_ROOT, "got " + r);
            }
            call.arg("root=" + r);
            return r;
        }

        /** @return the type: from {@code palette}, or (bad) null, uncommitted, or (if allowed) one below its origin */
        private Datatype typeArg(Call call, List<Datatype> palette, boolean bad, boolean belowOrigin) {
            if (!bad) {
                return pick(palette);
            }
            switch (rnd.nextInt(belowOrigin ? 3 : 2)) {
                case 0 -> {
                    call.fault(ErrorClass.ERR_TYPE, "null");
                    return null;
                }
                case 1 -> {
                    call.fault(ErrorClass.ERR_TYPE, "not committed");
                    return uncommitted();
                }
                default -> {
                    return BELOW_ORIGIN; // the buffer argument names the fault: no buffer holds it
                }
            }
        }

        /** @return a count of 1..3 or (bad) a negative one, one whose type map overflows 64 bits, or a huge one */
        private Count countArg(Call call, Datatype type, long blocks, boolean bad) {
            long base = 1 + rnd.nextInt(3);
            if (!bad) {
                return new Count(base, base, false);
            }
            long ext = Math.max(1, (type == null ? Datatype.INT : type).extent());
            int k = rnd.nextInt(3);
            if (k == 0) {
                long c = negative();
                call.fault(ErrorClass.ERR_COUNT, "got " + c);
                return new Count(c, base, false);
            }
            if (k == 1 && (ext >= 2 || blocks >= 2)) {
                // (count * blocks - 1) * extent, or count * blocks, overflows
                long c = rnd.nextBoolean() ? Long.MAX_VALUE - rnd.nextInt(1000)
                        : Long.MAX_VALUE / (ext * blocks) + 2 + rnd.nextInt(1000);
                call.fault(ErrorClass.ERR_COUNT, Long.toString(c));
                return new Count(c, base, false);
            }
            return new Count(base + 1 + rnd.nextLong(1L << 36), base, true); // the buffer argument names the fault
        }

        private BufferFault bufferFault(boolean write, boolean nicReach, boolean origin) {
            List<BufferFault> f = new ArrayList<>(List.of(BufferFault.TOO_SMALL, BufferFault.TOO_SMALL,
                    BufferFault.NULL, BufferFault.CLOSED));
            if (nicReach) {
                f.add(BufferFault.CONFINED); // a confined buffer is fine where the caller's thread does the copying
            }
            if (write) {
                f.add(BufferFault.READ_ONLY);
            }
            if (origin) {
                f.add(BufferFault.BAD_ORIGIN);
            }
            return pick(f);
        }

        private long badOrigin(long len) {
            return switch (rnd.nextInt(4)) {
                case 0 -> -1 - rnd.nextInt(64);
                case 1 -> Long.MIN_VALUE + rnd.nextInt(1000);
                case 2 -> Long.MAX_VALUE - rnd.nextInt(64);
                default -> len + 1 + rnd.nextInt(100);
            };
        }

        /**
         * @return a buffer for {@code count} x {@code blocks} elements of {@code type} (whose origin
         *         is {@code origin}, 0..8, if the call takes one), or (bad) one that cannot be used
         */
        private Side bufferArg(Call call, String role, Datatype type, Count count, long blocks, boolean write,
                               boolean nicReach, boolean originArg, boolean bad) {
            Datatype shape = type == null ? Datatype.INT : type;
            long origin = originArg ? rnd.nextInt(9) : 0;
            long need = origin + span(shape, count.base() * blocks);
            BufferFault fault = bad ? bufferFault(write, nicReach, originArg) : null;
            long len = fault == BufferFault.TOO_SMALL ? rnd.nextLong(need)
                    : need + (rnd.nextInt(4) == 0 ? rnd.nextInt(16) : 0);
            Guarded g = new Guarded(len);
            call.buffers.add(g);
            MemorySegment seg = g.seg;
            String desc = "byte[" + len + "]";
            if (fault != null) {
                switch (fault) {
                    case TOO_SMALL -> call.fault(ErrorClass.ERR_BUFFER, Long.toString(len));
                    case NULL -> {
                        seg = null;
                        desc = "null";
                        call.fault(ErrorClass.ERR_BUFFER, "null");
                    }
                    case CLOSED -> {
                        seg = closed;
                        desc = "closed segment";
                        call.fault(ErrorClass.ERR_BUFFER, "closed");
                    }
                    case CONFINED -> {
                        seg = confined;
                        desc = "confined segment";
                        call.fault(ErrorClass.ERR_BUFFER, "confined");
                    }
                    case READ_ONLY -> {
                        seg = g.seg.asReadOnly();
                        desc = "read-only " + desc;
                        call.fault(ErrorClass.ERR_BUFFER, "read-only");
                    }
                    case BAD_ORIGIN -> {
                        origin = badOrigin(len);
                        call.fault(ErrorClass.ERR_BUFFER, Long.toString(origin));
                    }
                }
            }
            if (seg == g.seg || fault == BufferFault.READ_ONLY) {
                // a real buffer: what it cannot hold is named by its length
                if (count.huge()) {
                    call.fault(ErrorClass.ERR_BUFFER, Long.toString(len));
                }
                if (type == BELOW_ORIGIN) {
                    call.fault(ErrorClass.ERR_BUFFER, Long.toString(len));
                }
            }
            call.arg(role + "=" + desc + ", count=" + count.value() + ", type=" + name(type)
                    + (originArg ? ", origin=" + origin : ""));
            return new Side(seg, origin, count.value(), type);
        }

        /** @return a typed buffer argument, made invalid (if bad) in its type, count or buffer, or several */
        private Side side(Call call, String role, long blocks, boolean write, boolean nicReach, boolean originArg,
                          boolean bad) {
            boolean[] cat = bad ? choose(false, 0.3, 0.3, 0.6) : new boolean[3];
            Datatype type = typeArg(call, ALL, cat[0], true);
            Count count = countArg(call, type, blocks, cat[1]);
            return bufferArg(call, role, type, count, blocks, write, nicReach, originArg, cat[2]);
        }

        /**
         * @return a count and displacement per rank into one buffer: displacements in extents of one
         *         type, or ({@code perPeer}) in bytes with a type per rank; made invalid if bad
         */
        private Blocks blocks(Call call, String role, boolean write, boolean perPeer, boolean bad) {
            Datatype type = perPeer ? null : pick(ALL);
            Datatype[] types = perPeer ? new Datatype[n] : null;
            long[] counts = new long[n];
            long[] displs = new long[n];
            long need = 0;
            long at = 0;
            boolean reversed = rnd.nextBoolean(); // blocks in rank order, or the other way round
            for (int j = 0; j < n; j++) {
                int i = reversed ? n - 1 - j : j;
                counts[i] = 1 + rnd.nextInt(3);
                displs[i] = at;
                if (perPeer) {
                    types[i] = pick(ALL);
                    at += span(types[i], counts[i]) + rnd.nextInt(4);
                    need = Math.max(need, displs[i] + span(types[i], counts[i]));
                } else {
                    at += counts[i] + rnd.nextInt(2);
                    need = Math.max(need, span(type, displs[i] + counts[i]));
                }
            }
            long len = need + (rnd.nextInt(4) == 0 ? rnd.nextInt(16) : 0);
            MemorySegment buf;
            String desc;
            int kind = bad ? rnd.nextInt(8) : -1;
            int i = rnd.nextInt(n);
            String atRank = "rank " + i;
            long extent = perPeer ? 1 : type.extent();
            switch (kind) {
                case 0 -> { // ill-sized arrays
                    int len2 = pick(List.of(0, 1, n - 1, n + 1, 2 * n + 3));
                    int which = rnd.nextInt(perPeer ? 3 : 2);
                    boolean nul = rnd.nextBoolean();
                    if (which == 0) {
                        counts = nul ? null : Arrays.copyOf(counts, len2);
                    } else if (which == 1) {
                        displs = nul ? null : Arrays.copyOf(displs, len2);
                    } else {
                        types = nul ? null : Arrays.copyOf(types, len2);
                    }
                    call.fault(ErrorClass.ERR_ARG, "one entry per rank (" + n + ")", nul ? "null" : Integer.toString(len2));
                }
                case 1 -> {
                    counts[i] = negative();
                    call.fault(ErrorClass.ERR_COUNT, atRank, "got " + counts[i]);
                }
                case 2 -> {
                    counts[i] = 1 + rnd.nextLong(1L << 36); // past the end of the buffer
                    if (span(perPeer ? types[i] : type, counts[i]) + displs[i] * extent <= len) {
                        counts[i] = len + 1;
                    }
                    call.fault(ErrorClass.ERR_BUFFER, atRank);
                }
                case 3 -> {
                    displs[i] = -1 - rnd.nextInt(50);
                    call.fault(ErrorClass.ERR_BUFFER, atRank);
                }
                case 4 -> {
                    if (!perPeer && extent >= 2) { // displacement x extent overflows
                        displs[i] = Long.MAX_VALUE / extent + 1 + rnd.nextInt(1000);
                        call.fault(ErrorClass.ERR_ARG, atRank, Long.toString(displs[i]));
                    } else {
                        displs[i] = rnd.nextBoolean() ? Long.MAX_VALUE - rnd.nextInt(100) : len / extent + 1 + rnd.nextInt(100);
                        call.fault(ErrorClass.ERR_BUFFER, atRank);
                    }
                }
                case 5 -> {
                    if (perPeer) {
                        if (rnd.nextBoolean()) {
                            types[i] = null;
                            call.fault(ErrorClass.ERR_TYPE, atRank, "null");
                        } else {
                            types[i] = uncommitted();
                            call.fault(ErrorClass.ERR_TYPE, "not committed");
                        }
                    } else if (rnd.nextBoolean()) {
                        type = null;
                        call.fault(ErrorClass.ERR_TYPE, "null");
                    } else {
                        type = uncommitted();
                        call.fault(ErrorClass.ERR_TYPE, "not committed");
                    }
                }
                default -> { } // the buffer, below
            }
            Guarded g = null;
            if (kind >= 6) {
                BufferFault f = bufferFault(write, true, false);
                if (f == BufferFault.TOO_SMALL) {
                    len = rnd.nextLong(need);
                    for (int k = 0; k < n; k++) { // every block that no longer fits
                        long end = perPeer ? displs[k] + span(types[k], counts[k]) : span(type, displs[k] + counts[k]);
                        if (end > len) {
                            call.fault(ErrorClass.ERR_BUFFER, "rank " + k);
                        }
                    }
                }
                g = new Guarded(len);
                buf = g.seg;
                desc = "byte[" + len + "]";
                switch (f) {
                    case NULL -> {
                        buf = null;
                        desc = "null";
                        call.fault(ErrorClass.ERR_BUFFER, "null");
                    }
                    case CLOSED -> {
                        buf = closed;
                        desc = "closed segment";
                        call.fault(ErrorClass.ERR_BUFFER, "closed");
                    }
                    case CONFINED -> {
                        buf = confined;
                        desc = "confined segment";
                        call.fault(ErrorClass.ERR_BUFFER, "confined");
                    }
                    case READ_ONLY -> {
                        buf = g.seg.asReadOnly();
                        desc = "read-only " + desc;
                        call.fault(ErrorClass.ERR_BUFFER, "read-only");
                    }
                    default -> { }
                }
            } else {
                g = new Guarded(len);
                buf = g.seg;
                desc = "byte[" + len + "]";
            }
            call.buffers.add(g);
            call.arg(role + "=" + desc + ", counts=" + Arrays.toString(counts) + ", displs=" + Arrays.toString(displs)
                    + (perPeer ? ", types=" + (types == null ? "null"
                            : Arrays.stream(types).map(Rank::name).toList()) : ", type=" + name(type)));
            return new Blocks(buf, counts, displs, type, types);
        }

        // ---- point-to-point -----------------------------------------------------------------------

        private void pointToPoint() {
            int k = rnd.nextInt(7);
            if (k < 3) {
                send(k);
            } else if (k < 6) {
                receive(k - 3);
            } else {
                sendrecv();
            }
        }

        private void send(int kind) {
            Call call = new Call(switch (kind) {
                case 0 -> "isend";
                case 1 -> "send";
                default -> "isend at an origin";
            });
            boolean[] m = choose(false, 0.04, 0.25, 0.25, 0.6);
            Comm c = comm(call, m[0]);
            int dest = peer(call, "dest", c, m[1], false);
            int tag = tag(call, "tag", m[2], false);
            Side s = side(call, "buf", 1, false, true, kind == 2, m[3]);
            expectFailure(call, () -> {
                switch (kind) {
                    case 0 -> c.isend(s.buf(), s.count(), s.type(), dest, tag);
                    case 1 -> c.send(s.buf(), s.count(), s.type(), dest, tag);
                    default -> c.isend(s.buf(), s.origin(), s.count(), s.type(), dest, tag);
                }
            });
        }

        private void receive(int kind) {
            Call call = new Call(switch (kind) {
                case 0 -> "irecv";
                case 1 -> "recv";
                default -> "irecv at an origin";
            });
            boolean[] m = choose(false, 0.04, 0.25, 0.25, 0.6);
            Comm c = comm(call, m[0]);
            int source = peer(call, "source", c, m[1], true);
            int tag = tag(call, "tag", m[2], true);
            Side s = side(call, "buf", 1, true, true, kind == 2, m[3]);
            expectFailure(call, () -> {
                switch (kind) {
                    case 0 -> c.irecv(s.buf(), s.count(), s.type(), source, tag);
                    case 1 -> c.recv(s.buf(), s.count(), s.type(), source, tag);
                    default -> c.irecv(s.buf(), s.origin(), s.count(), s.type(), source, tag);
                }
            });
        }

        private void sendrecv() {
            Call call = new Call("sendrecv");
            boolean[] m = choose(false, 0.03, 0.15, 0.15, 0.35, 0.15, 0.15, 0.35);
            Comm c = comm(call, m[0]);
            int dest = peer(call, "dest", c, m[1], false);
            int sendTag = tag(call, "sendtag", m[2], false);
            Side s = side(call, "sendbuf", 1, false, true, false, m[3]);
            int source = peer(call, "source", c, m[4], true);
            int recvTag = tag(call, "recvtag", m[5], true);
            Side r = side(call, "recvbuf", 1, true, true, false, m[6]);
            expectFailure(call, () -> c.sendrecv(s.buf(), s.count(), s.type(), dest, sendTag, r.buf(), r.count(),
                    r.type(), source, recvTag));
        }

        private void probe() {
            int kind = rnd.nextInt(4);
            Call call = new Call(List.of("iprobe", "probe", "improbe", "mprobe").get(kind));
            boolean[] m = choose(false, 0.1, 0.5, 0.5);
            Comm c = comm(call, m[0]);
            int source = peer(call, "source", c, m[1], true);
            int tag = tag(call, "tag", m[2], true);
            expectFailure(call, () -> {
                switch (kind) {
                    case 0 -> c.iprobe(source, tag);
                    case 1 -> c.probe(source, tag);
                    case 2 -> c.improbe(source, tag);
                    default -> c.mprobe(source, tag);
                }
            });
        }

        /** Bad receives of MPI_MESSAGE_NO_PROC and of a real matched message, which stays receivable. */
        private void matched() {
            Comm c = rnd.nextBoolean() ? world : dup;
            Message none = valid("mprobe(PROC_NULL)", () -> c.mprobe(Comm.PROC_NULL, Comm.ANY_TAG));
            for (int j = rnd.nextInt(3); j >= 0; j--) {
                messageReceive(none, "of MESSAGE_NO_PROC");
            }
            valid("the receive of MESSAGE_NO_PROC", () -> none.recv(MemorySegment.ofArray(new int[2]), 2, Datatype.INT));
            receivedAgain(none);

            int k = 1 + rnd.nextInt(4);
            int[] payload = rnd.ints(k).toArray();
            Request s = valid("a send to itself", () -> c.isend(MemorySegment.ofArray(payload), k, Datatype.INT, rank,
                    SELF_TAG));
            Message m = valid("mprobe of the message to itself", () -> c.mprobe(rank, SELF_TAG));
            for (int j = rnd.nextInt(3); j >= 0; j--) {
                messageReceive(m, "of a matched message");
            }
            int[] got = new int[k];
            Status st = valid("the receive of the matched message after bad ones",
                    () -> m.recv(MemorySegment.ofArray(got), k, Datatype.INT));
            valid("the send to itself", s::waitFor);
            assertArrayEquals(payload, got, where("the matched message, received after bad receives of it"));
            assertEquals(4L * k, st.byteCount(), where("the matched message's length"));
            receivedAgain(m);
        }

        private void messageReceive(Message m, String what) {
            boolean blocking = rnd.nextBoolean();
            Call call = new Call("Message." + (blocking ? "recv " : "irecv ") + what);
            Side s = side(call, "buf", 1, true, true, false, true);
            expectFailure(call, () -> {
                if (blocking) {
                    m.recv(s.buf(), s.count(), s.type());
                } else {
                    m.irecv(s.buf(), s.count(), s.type());
                }
            });
        }

        private void receivedAgain(Message m) {
            Call call = new Call("Message.irecv of a message received already").fault(ErrorClass.ERR_REQUEST,
                    "received already");
            Guarded g = new Guarded(16);
            call.buffers.add(g);
            call.arg("buf=byte[16], count=4, type=int");
            expectFailure(call, () -> m.irecv(g.seg, 4, Datatype.INT));
        }

        private void requests() {
            Request done = valid("a send to PROC_NULL", () -> world.isend(MemorySegment.ofArray(new int[1]), 1,
                    Datatype.INT, Comm.PROC_NULL, 0));
            int kind = rnd.nextInt(6);
            switch (kind) {
                case 0 -> expectFailure(new Call("waitAll").arg("null array").fault(ErrorClass.ERR_ARG, "null"),
                        () -> Request.waitAll((Request[]) null));
                case 1 -> expectFailure(new Call("waitAll").arg("null list").fault(ErrorClass.ERR_ARG, "null"),
                        () -> Request.waitAll((List<Request>) null));
                case 2 -> expectFailure(new Call("waitAny").arg("no requests").fault(ErrorClass.ERR_ARG, "none"),
                        () -> Request.waitAny());
                case 3 -> {
                    int which = rnd.nextInt(3);
                    Call call = new Call(List.of("waitAny", "testAll", "testSome").get(which)).arg("null array")
                            .fault(ErrorClass.ERR_ARG, "null");
                    expectFailure(call, () -> {
                        switch (which) {
                            case 0 -> Request.waitAny((Request[]) null);
                            case 1 -> Request.testAll((Request[]) null);
                            default -> Request.testSome((Request[]) null);
                        }
                    });
                }
                default -> { // null elements among completed and pending requests: nothing waited for
                    int k = 1 + rnd.nextInt(6);
                    Request[] rs = new Request[k];
                    int firstNull = -1;
                    List<String> shown = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        int x = rnd.nextInt(3);
                        rs[i] = x == 0 ? null : x == 1 ? done : pending;
                        shown.add(x == 0 ? "null" : x == 1 ? "completed" : "pending");
                    }
                    if (Arrays.stream(rs).noneMatch(r -> r == null)) {
                        int i = rnd.nextInt(k);
                        rs[i] = null;
                        shown.set(i, "null");
                    }
                    for (int i = 0; i < k && firstNull < 0; i++) {
                        firstNull = rs[i] == null ? i : -1;
                    }
                    int which = rnd.nextInt(5);
                    Call call = new Call(List.of("waitAll", "waitAny", "testAll", "testSome", "waitAll(list)")
                            .get(which)).arg(shown.toString())
                            .fault(ErrorClass.ERR_REQUEST, "request " + firstNull + " of " + k);
                    expectFailure(call, () -> {
                        switch (which) {
                            case 0 -> Request.waitAll(rs);
                            case 1 -> Request.waitAny(rs);
                            case 2 -> Request.testAll(rs);
                            case 3 -> Request.testSome(rs);
                            default -> Request.waitAll(Arrays.asList(rs));
                        }
                    });
                }
            }
            Status st = valid("the completed send's status", done::waitFor);
            boolean count = rnd.nextBoolean();
            expectFailure(new Call(count ? "Status.count" : "Status.elements").arg("type=null")
                    .fault(ErrorClass.ERR_TYPE, "null"), () -> {
                        if (count) {
                            st.count(null);
                        } else {
                            st.elements(null);
                        }
                    });
        }

        // ---- communicators and topologies ---------------------------------------------------------

        private void communicators() {
            switch (rnd.nextInt(7)) {
                case 0 -> {
                    Comm c = pick(List.of(world, dup, ring, grid));
                    int r = rnd.nextBoolean() ? badRank(c.size(), false) : pick(List.of(Comm.PROC_NULL, Comm.ANY_SOURCE));
                    expectFailure(new Call("worldRank").arg("comm=" + c).arg("rank=" + r)
                            .fault(ErrorClass.ERR_RANK, "got " + r), () -> c.worldRank(r));
                }
                case 1 -> {
                    Comm c = rnd.nextBoolean() ? world : dup;
                    int color = pick(List.of(-1, Comm.PROC_NULL, -3 - rnd.nextInt(30_000), Comm.UNDEFINED - 1,
                            Integer.MIN_VALUE));
                    int key = rnd.nextInt();
                    expectFailure(new Call("split").arg("comm=" + c).arg("color=" + color).arg("key=" + key)
                            .fault(ErrorClass.ERR_ARG, "got " + color), () -> c.split(color, key));
                }
                case 2 -> {
                    Comm c = pick(List.of(world, freed, freedCart));
                    expectFailure(new Call("free").arg("comm=" + c)
                            .fault(ErrorClass.ERR_COMM, c == world ? "world" : "freed"), c::free);
                }
                case 3 -> {
                    Comm c = rnd.nextBoolean() ? freed : freedCart;
                    int which = rnd.nextInt(4);
                    Call call = new Call(List.of("dup", "split", "barrier", "cartCreate").get(which))
                            .arg("comm=" + c + " (freed)").fault(ErrorClass.ERR_COMM, "freed");
                    expectFailure(call, () -> {
                        switch (which) {
                            case 0 -> c.dup();
                            case 1 -> c.split(0, 0);
                            case 2 -> c.barrier();
                            default -> c.cartCreate(new int[] {n}, new boolean[1], false);
                        }
                    });
                }
                case 4, 5 -> cartCreate();
                default -> dimsCreate();
            }
        }

        private void cartCreate() {
            Call call = new Call("cartCreate");
            Comm c = rnd.nextBoolean() ? world : dup;
            int nd = 1 + rnd.nextInt(4);
            int[] dims = new int[nd];
            Arrays.fill(dims, 1);
            boolean[] periods = new boolean[nd];
            for (int i = 0; i < nd; i++) {
                periods[i] = rnd.nextBoolean();
            }
            switch (rnd.nextInt(6)) {
                case 0 -> {
                    dims = null;
                    call.fault(ErrorClass.ERR_DIMS, "null");
                }
                case 1 -> {
                    periods = null;
                    call.fault(ErrorClass.ERR_DIMS, "null");
                }
                case 2 -> {
                    periods = new boolean[nd + 1 + rnd.nextInt(3)];
                    call.fault(ErrorClass.ERR_DIMS, Integer.toString(nd), Integer.toString(periods.length));
                }
                case 3 -> {
                    int i = rnd.nextInt(nd);
                    dims[i] = pick(List.of(0, -1 - rnd.nextInt(100), Integer.MIN_VALUE));
                    call.fault(ErrorClass.ERR_DIMS, "dims[" + i + "]", "got " + dims[i]);
                }
                case 4 -> { // more ranks than the communicator has
                    long product;
                    do {
                        for (int i = 0; i < nd; i++) {
                            dims[i] = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 2000);
                        }
                        product = Arrays.stream(dims).asLongStream().reduce(1, Math::multiplyExact);
                    } while (product <= n || product > Integer.MAX_VALUE);
                    call.fault(ErrorClass.ERR_DIMS, Arrays.toString(dims), Long.toString(product));
                }
                default -> { // more ranks than an int holds
                    dims = pick(List.of(new int[] {1 << 16, 1 << 16}, new int[] {46341, 46341},
                            new int[] {Integer.MAX_VALUE, 2}, new int[] {3, 1 << 20, 1 << 12}));
                    periods = new boolean[dims.length];
                    call.fault(ErrorClass.ERR_DIMS, Arrays.toString(dims));
                }
            }
            int[] d = dims;
            boolean[] p = periods;
            call.arg("comm=" + c).arg("dims=" + Arrays.toString(d)).arg("periods=" + Arrays.toString(p));
            expectFailure(call, () -> c.cartCreate(d, p, rnd.nextBoolean()));
        }

        private void dimsCreate() {
            Call call = new Call("DimsCreate.dimsCreate");
            int nnodes = 1 + rnd.nextInt(1000);
            int[] dims = new int[1 + rnd.nextInt(4)];
            switch (rnd.nextInt(6)) {
                case 0 -> {
                    nnodes = pick(List.of(0, -1 - rnd.nextInt(1000), Integer.MIN_VALUE));
                    call.fault(ErrorClass.ERR_ARG, "got " + nnodes);
                }
                case 1 -> {
                    dims = null;
                    call.fault(ErrorClass.ERR_DIMS, "null");
                }
                case 2 -> {
                    int i = rnd.nextInt(dims.length);
                    for (int j = 0; j < i; j++) {
                        dims[j] = rnd.nextInt(4);
                    }
                    dims[i] = pick(List.of(-1, -2 - rnd.nextInt(1000), Integer.MIN_VALUE));
                    call.fault(ErrorClass.ERR_DIMS, "dims[" + i + "]", "got " + dims[i]);
                }
                case 3 -> { // fixed dimensions that do not divide nnodes
                    int fixed = 1;
                    for (int i = 0; i < dims.length; i++) {
                        dims[i] = rnd.nextBoolean() ? 0 : pick(List.of(2, 3, 5, 7));
                        fixed *= Math.max(1, dims[i]);
                    }
                    if (fixed == 1) {
                        dims[0] = 7;
                        fixed *= 7;
                    }
                    nnodes = fixed * (1 + rnd.nextInt(50)) + 1 + rnd.nextInt(fixed - 1);
                    call.fault(ErrorClass.ERR_DIMS, "nnodes " + nnodes);
                }
                case 4 -> { // every dimension fixed, their product a proper divisor of nnodes
                    int fixed = 1;
                    for (int i = 0; i < dims.length; i++) {
                        dims[i] = 1 + rnd.nextInt(4);
                        fixed *= dims[i];
                    }
                    nnodes = fixed * (2 + rnd.nextInt(20));
                    call.fault(ErrorClass.ERR_DIMS, "nnodes " + nnodes);
                }
                default -> { // fixed dimensions whose product overflows an int
                    dims = pick(List.of(new int[] {1 << 16, 1 << 16, 0}, new int[] {Integer.MAX_VALUE, 2},
                            new int[] {0, 46341, 46341}, new int[] {1 << 20, 1 << 20}));
                    call.fault(ErrorClass.ERR_DIMS, Arrays.toString(dims));
                }
            }
            int nn = nnodes;
            int[] d = dims;
            call.arg("nnodes=" + nn).arg("dims=" + Arrays.toString(d));
            expectFailure(call, () -> DimsCreate.dimsCreate(nn, d));
        }

        private void cartesian() {
            CartComm c = rnd.nextBoolean() ? ring : grid;
            switch (rnd.nextInt(5)) {
                case 0 -> {
                    int r = rnd.nextBoolean() ? badRank(c.size(), false) : pick(List.of(Comm.PROC_NULL, Comm.ANY_SOURCE));
                    expectFailure(new Call("coords").arg(c.toString()).arg("rank=" + r)
                            .fault(ErrorClass.ERR_RANK, "got " + r), () -> c.coords(r));
                }
                case 1 -> {
                    int[] coords;
                    Call call = new Call("rankOf").arg(grid.toString());
                    int kind = rnd.nextInt(3);
                    if (kind == 0) {
                        coords = null;
                        call.fault(ErrorClass.ERR_ARG, "null");
                    } else if (kind == 1) {
                        coords = new int[pick(List.of(0, 1, 3, 7))];
                        call.fault(ErrorClass.ERR_ARG, "expected 2 coordinates", Arrays.toString(coords));
                    } else { // dimension 0 has extent 1 and does not wrap
                        int bad = pick(List.of(1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 2 + rnd.nextInt(100)));
                        coords = new int[] {bad, rnd.nextInt()};
                        call.fault(ErrorClass.ERR_ARG, "coordinate " + bad + " of dimension 0");
                    }
                    call.arg("coords=" + Arrays.toString(coords));
                    expectFailure(call, () -> grid.rankOf(coords));
                }
                case 2 -> {
                    int direction = pick(List.of(c.ndims(), c.ndims() + rnd.nextInt(100), -1 - rnd.nextInt(100),
                            Integer.MIN_VALUE, Integer.MAX_VALUE));
                    int disp = rnd.nextInt();
                    expectFailure(new Call("shift").arg(c.toString()).arg("direction=" + direction)
                            .arg("disp=" + disp).fault(ErrorClass.ERR_DIMS, "got " + direction),
                            () -> c.shift(direction, disp));
                }
                case 3 -> {
                    int which = rnd.nextInt(4);
                    Call call = new Call(List.of("coords()", "coords(rank)", "rankOf", "shift").get(which))
                            .arg(freedCart + " (freed)").fault(ErrorClass.ERR_COMM, "freed");
                    expectFailure(call, () -> {
                        switch (which) {
                            case 0 -> freedCart.coords();
                            case 1 -> freedCart.coords(0);
                            case 2 -> freedCart.rankOf(0);
                            default -> freedCart.shift(0, 1);
                        }
                    });
                }
                default -> { // a correct shift by an extreme displacement, then a bad direction
                    int disp = pick(List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1,
                            rnd.nextInt(), rnd.nextInt(7) - 3));
                    int direction = rnd.nextInt(c.ndims());
                    CartComm.Shift s = valid(c + ".shift(" + direction + ", " + disp + ")", () -> c.shift(direction, disp));
                    int[] dims = c.dims();
                    boolean periodic = c.periods()[direction];
                    int[] mine = c.coords();
                    assertEquals(neighbour(c, mine, dims, direction, -(long) disp, periodic), s.source(),
                            where(c + ".shift(" + direction + ", " + disp + ").source"));
                    assertEquals(neighbour(c, mine, dims, direction, disp, periodic), s.dest(),
                            where(c + ".shift(" + direction + ", " + disp + ").dest"));
                    expectFailure(new Call("shift").arg(c.toString()).arg("direction=" + c.ndims())
                            .fault(ErrorClass.ERR_DIMS, "got " + c.ndims()), () -> c.shift(c.ndims(), disp));
                }
            }
        }

        /** The rank {@code steps} along {@code direction} from {@code coords}, computed in longs. */
        private static int neighbour(CartComm c, int[] coords, int[] dims, int direction, long steps, boolean periodic) {
            long to = coords[direction] + steps;
            if (!periodic && (to < 0 || to >= dims[direction])) {
                return Comm.PROC_NULL;
            }
            int[] at = coords.clone();
            at[direction] = (int) Math.floorMod(to, (long) dims[direction]);
            return c.rankOf(at);
        }

        // ---- collectives ------------------------------------------------------------------------

        private void collective() {
            switch (rnd.nextInt(12)) {
                case 0 -> bcast();
                case 1 -> reduction(false);
                case 2 -> reduction(true);
                case 3 -> gather(false);
                case 4 -> gather(true);
                case 5 -> scatter(false);
                case 6 -> scatter(true);
                case 7 -> allToAll(false);
                case 8 -> allToAll(true);
                case 9 -> allToAllV(false);
                case 10 -> allToAllV(true);
                default -> expectFailure(new Call("barrier").arg("comm=" + freed + " (freed)")
                        .fault(ErrorClass.ERR_COMM, "freed"), freed::barrier);
            }
        }

        private void bcast() {
            Call call = new Call("bcast");
            boolean badComm = rnd.nextInt(25) == 0;
            boolean badRoot = rnd.nextInt(5) == 0;
            Comm c = comm(call, badComm);
            int root = root(call, c, badRoot);
            boolean[] m = choose(badComm || badRoot, 0.8);
            Side s = side(call, "buf", 1, c.rank() != root, true, false, m[0]);
            expectFailure(call, () -> c.bcast(s.buf(), s.count(), s.type(), root));
        }

        private void reduction(boolean all) {
            Call call = new Call(all ? "allreduce" : "reduce");
            boolean badComm = rnd.nextInt(25) == 0;
            boolean badRoot = !all && rnd.nextInt(5) == 0;
            Comm c = comm(call, badComm);
            int root = all ? -1 : root(call, c, badRoot);
            boolean receives = all || c.rank() == root;
            boolean[] m = choose(badComm || badRoot, 0.25, 0.2, 0.2, 0.25, receives ? 0.25 : 0);
            ReduceOp op = rnd.nextInt(4) == 0 ? UNREACHABLE : pick(PREDEFINED);
            Datatype type = op == UNREACHABLE ? pick(ALL) : pick(NAMED);
            if (m[0]) {
                if (rnd.nextBoolean()) {
                    op = null;
                    call.fault(ErrorClass.ERR_OP, "null");
                } else { // a predefined operator on a derived type
                    op = pick(PREDEFINED);
                    type = pick(DERIVED);
                    call.fault(ErrorClass.ERR_OP, op.name(), "named types");
                }
            }
            if (m[2]) {
                type = typeArg(call, NAMED, true, false);
            }
            Count count = countArg(call, type, 1, m[1]);
            call.arg("op=" + (op == null ? "null" : op.name()));
            Side send = bufferArg(call, "sendbuf", type, count, 1, false, false, false, m[3]);
            Side recv = bufferArg(call, "recvbuf", type, count, 1, true, false, false, m[4]);
            ReduceOp o = op;
            Datatype t = type;
            expectFailure(call, () -> {
                if (all) {
                    c.allreduce(send.buf(), recv.buf(), count.value(), t, o);
                } else {
                    c.reduce(send.buf(), recv.buf(), count.value(), t, o, root);
                }
            });
        }

        private void gather(boolean v) {
            Call call = new Call(v ? "gatherv" : "gather");
            boolean badComm = rnd.nextInt(25) == 0;
            boolean badRoot = rnd.nextInt(5) == 0;
            Comm c = comm(call, badComm);
            int root = root(call, c, badRoot);
            boolean[] m = choose(badComm || badRoot, 0.5, c.rank() == root ? 0.6 : 0);
            Side s = side(call, "sendbuf", 1, false, true, false, m[0]);
            if (v) {
                Blocks r = blocks(call, "recvbuf", true, false, m[1]);
                expectFailure(call, () -> c.gatherv(s.buf(), s.count(), s.type(), r.buf(), r.counts(), r.displs(),
                        r.type(), root));
            } else {
                Side r = side(call, "recvbuf", n, true, true, false, m[1]);
                expectFailure(call, () -> c.gather(s.buf(), s.count(), s.type(), r.buf(), r.count(), r.type(), root));
            }
        }

        private void scatter(boolean v) {
            Call call = new Call(v ? "scatterv" : "scatter");
            boolean badComm = rnd.nextInt(25) == 0;
            boolean badRoot = rnd.nextInt(5) == 0;
            Comm c = comm(call, badComm);
            int root = root(call, c, badRoot);
            boolean[] m = choose(badComm || badRoot, c.rank() == root ? 0.6 : 0, 0.5);
            Side r = side(call, "recvbuf", 1, true, true, false, m[1]);
            if (v) {
                Blocks s = blocks(call, "sendbuf", false, false, m[0]);
                expectFailure(call, () -> c.scatterv(s.buf(), s.counts(), s.displs(), s.type(), r.buf(), r.count(),
                        r.type(), root));
            } else {
                Side s = side(call, "sendbuf", n, false, true, false, m[0]);
                expectFailure(call, () -> c.scatter(s.buf(), s.count(), s.type(), r.buf(), r.count(), r.type(), root));
            }
        }

        /** allgather (each rank's block to everyone) or alltoall (a block from each to each). */
        private void allToAll(boolean alltoall) {
            Call call = new Call(alltoall ? "alltoall" : "allgather");
            boolean badComm = rnd.nextInt(25) == 0;
            Comm c = comm(call, badComm);
            boolean[] m = choose(badComm, 0.5, 0.5);
            Side s = side(call, "sendbuf", alltoall ? n : 1, false, true, false, m[0]);
            Side r = side(call, "recvbuf", n, true, true, false, m[1]);
            expectFailure(call, () -> {
                if (alltoall) {
                    c.alltoall(s.buf(), s.count(), s.type(), r.buf(), r.count(), r.type());
                } else {
                    c.allgather(s.buf(), s.count(), s.type(), r.buf(), r.count(), r.type());
                }
            });
        }

        private void allToAllV(boolean w) {
            Call call = new Call(w ? "alltoallw" : "alltoallv");
            boolean badComm = rnd.nextInt(25) == 0;
            Comm c = comm(call, badComm);
            boolean[] m = choose(badComm, 0.5, 0.5);
            Blocks s = blocks(call, "sendbuf", false, w, m[0]);
            Blocks r = blocks(call, "recvbuf", true, w, m[1]);
            expectFailure(call, () -> {
                if (w) {
                    c.alltoallw(s.buf(), s.counts(), s.displs(), s.types(), r.buf(), r.counts(), r.displs(), r.types());
                } else {
                    c.alltoallv(s.buf(), s.counts(), s.displs(), s.type(), r.buf(), r.counts(), r.displs(), r.type());
                }
            });
        }

        // ---- reduction operators ------------------------------------------------------------------

        private void ops() {
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    String name = "op" + rnd.nextInt(1000);
                    expectFailure(new Call("Ops.user").arg("name=" + name).arg("function=null")
                            .fault(ErrorClass.ERR_OP, name), () -> Ops.user(name, null, rnd.nextBoolean()));
                }
                case 1 -> {
                    int kind = rnd.nextInt(3);
                    ReduceOp op = kind == 1 ? null : pick(PREDEFINED);
                    Datatype type = kind == 0 ? pick(DERIVED) : kind == 1 ? pick(ALL) : null;
                    Call call = new Call("Ops.checkApplicable").arg("op=" + (op == null ? "null" : op.name()))
                            .arg("type=" + name(type));
                    if (kind == 0) {
                        call.fault(ErrorClass.ERR_OP, op.name(), "named types");
                    } else if (kind == 1) {
                        call.fault(ErrorClass.ERR_OP, "null");
                    } else {
                        call.fault(ErrorClass.ERR_TYPE, "null");
                    }
                    expectFailure(call, () -> Ops.checkApplicable(op, type));
                }
                default -> apply();
            }
        }

        /** {@code ReduceOp.apply} on contiguous buffers, with bad types, counts or buffers. */
        private void apply() {
            ReduceOp op = rnd.nextInt(4) == 0 ? UNREACHABLE : pick(PREDEFINED);
            Call call = new Call(op.name() + ".apply");
            boolean[] m = choose(false, 0.2, 0.3, 0.3, 0.3, op == UNREACHABLE ? 0 : 0.25);
            Datatype type = op == UNREACHABLE ? pick(ALL) : pick(NAMED);
            if (m[4]) {
                type = pick(DERIVED);
                call.fault(ErrorClass.ERR_OP, op.name(), "named types");
            }
            Datatype shape = type;
            if (m[0]) {
                type = null;
                call.fault(ErrorClass.ERR_TYPE, "null");
            }
            long base = 1 + rnd.nextInt(4);
            long count = base;
            if (m[1]) {
                int k = rnd.nextInt(3);
                if (k == 0) {
                    count = negative();
                    call.fault(ErrorClass.ERR_COUNT, "got " + count);
                } else if (k == 1 && shape.size() >= 2) { // count x size overflows
                    count = Long.MAX_VALUE / shape.size() + 1 + rnd.nextInt(1000);
                    call.fault(ErrorClass.ERR_COUNT, Long.toString(count));
                } else { // more elements than the buffers hold
                    count = base + 1 + rnd.nextLong(1L << 36);
                    call.fault(ErrorClass.ERR_BUFFER, Long.toString(count));
                }
            }
            long bytes = base * shape.size();
            MemorySegment in = contiguous(call, "in", bytes, m[2], false);
            MemorySegment inout = contiguous(call, "inout", bytes, m[3], true);
            call.arg("count=" + count).arg("type=" + name(type));
            long cnt = count;
            Datatype t = type;
            expectFailure(call, () -> op.apply(in, inout, cnt, t));
        }

        private MemorySegment contiguous(Call call, String role, long bytes, boolean bad, boolean write) {
            int kind = bad ? rnd.nextInt(write ? 3 : 2) : -1;
            long len = kind == 1 ? rnd.nextLong(bytes) : bytes;
            Guarded g = new Guarded(len);
            call.buffers.add(g);
            MemorySegment seg = g.seg;
            String desc = "byte[" + len + "]";
            switch (kind) {
                case 0 -> {
                    seg = null;
                    desc = "null";
                    call.fault(ErrorClass.ERR_BUFFER, "null");
                }
                case 1 -> call.fault(ErrorClass.ERR_BUFFER, Long.toString(len));
                case 2 -> {
                    seg = seg.asReadOnly();
                    desc = "read-only " + desc;
                    call.fault(ErrorClass.ERR_BUFFER, "read-only");
                }
                default -> { }
            }
            call.arg(role + "=" + desc);
            return seg;
        }

        // ---- the correct calls after each batch ---------------------------------------------------

        private void validRound(int batch) {
            String round = "the correct calls after batch " + batch;
            int left = (rank + n - 1) % n;
            int right = (rank + 1) % n;
            // the first message each rank gets is its left neighbour's marker, into a receive posted now
            int[] got = new int[3];
            Request in = valid(round + ": marker receive", () -> world.irecv(MemorySegment.ofArray(got), 3,
                    Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG));
            Request out = valid(round + ": marker send", () -> world.isend(MemorySegment.ofArray(
                    new int[] {0x3A7E, batch, rank}), 3, Datatype.INT, right, MARKER_TAG));
            Status s = valid(round + ": marker receive (a bad send went out, or a bad receive took the marker?)",
                    in::waitFor);
            valid(round + ": marker send", out::waitFor);
            assertEquals(left, s.source(), where(round + ": the marker's source (a bad send went out?)"));
            assertEquals(MARKER_TAG, s.tag(), where(round + ": the marker's tag (a bad send went out?)"));
            assertArrayEquals(new int[] {0x3A7E, batch, left}, got, where(round + ": the marker"));

            // a strided sendrecv around the ring on another communicator
            Comm c = List.of(world, dup, ring).get(batch % 3);
            Datatype every2nd = DERIVED.get(1); // 3 ints, every second one
            int[] from = {rank, -1, batch, -1, (int) seed, -1};
            int[] into = {7, 7, 7, 7, 7, 7};
            valid(round + ": strided sendrecv", () -> c.sendrecv(MemorySegment.ofArray(from), 1, every2nd, right,
                    RING_TAG, MemorySegment.ofArray(into), 1, every2nd, left, RING_TAG));
            assertArrayEquals(new int[] {left, 7, batch, 7, (int) seed, 7}, into, where(round + ": strided sendrecv"));

            // a collective, with its result checked
            collectiveRound(round, c, batch);

            // nothing left over anywhere (between two barriers: no rank sends its next marker
            // before all have looked), the pending receive still pending, no buffer written
            valid(round + ": barrier", () -> {
                world.barrier();
                return null;
            });
            for (Comm x : List.of(world, dup, ring, grid)) {
                assertNull(valid(round + ": iprobe", () -> x.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG)),
                        where(round + ": a message left over in " + x));
            }
            valid(round + ": second barrier", () -> {
                world.barrier();
                return null;
            });
            assertFalse(pending.isDone(), where(round + ": the receive posted before the batch completed"));
            pending.cancel();
            assertTrue(valid(round + ": the cancelled receive", pending::waitFor).cancelled(),
                    where(round + ": the receive posted before the batch was not cancelled"));
            for (Guarded g : watched) {
                g.assertUntouched(where(round + ": a buffer given to a bad call of this batch"));
            }
            watched.clear();
        }

        private void collectiveRound(String round, Comm c, int batch) {
            int root = batch % n;
            String what = round + ": collective " + batch % 7 + " on " + c;
            valid(what, () -> {
                switch (batch % 7) {
                    case 0 -> {
                        long[] v = rank == root ? new long[] {seed, batch} : new long[2];
                        c.bcast(MemorySegment.ofArray(v), 2, Datatype.LONG, root);
                        assertArrayEquals(new long[] {seed, batch}, v);
                    }
                    case 1 -> {
                        long[] v = new long[2];
                        c.allreduce(MemorySegment.ofArray(new long[] {rank + 1, batch}), MemorySegment.ofArray(v), 2,
                                Datatype.LONG, Ops.SUM);
                        assertArrayEquals(new long[] {n * (n + 1) / 2, (long) n * batch}, v);
                    }
                    case 2 -> {
                        int[] v = new int[1];
                        c.reduce(MemorySegment.ofArray(new int[] {10 * rank + batch}), MemorySegment.ofArray(v), 1,
                                Datatype.INT, Ops.MAX, root);
                        assertEquals(rank == root ? 10 * (n - 1) + batch : 0, v[0]);
                    }
                    case 3 -> {
                        int[] v = new int[n];
                        c.gather(MemorySegment.ofArray(new int[] {rank + batch}), 1, Datatype.INT,
                                MemorySegment.ofArray(v), 1, Datatype.INT, root);
                        for (int i = 0; i < n; i++) {
                            assertEquals(rank == root ? i + batch : 0, v[i]);
                        }
                    }
                    case 4 -> {
                        int[] all = new int[n];
                        for (int i = 0; i < n; i++) {
                            all[i] = batch + i;
                        }
                        int[] v = new int[1];
                        c.scatter(MemorySegment.ofArray(all), 1, Datatype.INT, MemorySegment.ofArray(v), 1,
                                Datatype.INT, root);
                        assertEquals(batch + rank, v[0]);
                    }
                    case 5 -> {
                        int[] v = new int[n];
                        c.allgather(MemorySegment.ofArray(new int[] {rank * batch}), 1, Datatype.INT,
                                MemorySegment.ofArray(v), 1, Datatype.INT);
                        for (int i = 0; i < n; i++) {
                            assertEquals(i * batch, v[i]);
                        }
                    }
                    default -> {
                        int[] send = new int[n];
                        for (int i = 0; i < n; i++) {
                            send[i] = 100 * rank + i + batch;
                        }
                        int[] v = new int[n];
                        c.alltoall(MemorySegment.ofArray(send), 1, Datatype.INT, MemorySegment.ofArray(v), 1,
                                Datatype.INT);
                        for (int i = 0; i < n; i++) {
                            assertEquals(100 * i + rank + batch, v[i]);
                        }
                    }
                }
                return null;
            });
        }
    }
}
