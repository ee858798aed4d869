package org.jspin.datatype.testing;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.Order;

/**
 * A seeded generator of random nested datatypes covering every constructor: named types,
 * contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block, struct, subarray
 * (C and Fortran order), resized and dup, nested up to {@link #MAX_DEPTH} constructors deep. The
 * parameters are drawn to hit the awkward cases: negative, zero and overlapping strides and
 * displacements, zero counts and block lengths, blocks placed exactly end to end (so that pieces
 * merge), shared subtrees, regular and look-alike structs, and resized types with a negative lb or
 * an extent smaller than the true extent (consecutive elements overlap).
 *
 * <p>Each constructor hands its components a share of a budget of named-type entries, so that deep
 * trees stay small without being mostly rejected (rejection would favour tiny and empty types).
 * Candidates that still come out too large are drawn again from the same random stream, so a seed
 * always yields the same case.
 */
public final class RandomTypes {
    /** Deepest nesting of constructors. */
    public static final int MAX_DEPTH = 4;
    /** Upper bound on named-type entries in a message (the oracle's work). */
    static final long MAX_ENTRIES = 150_000;
    /** Upper bound on merged regions in a message. */
    static final long MAX_REGIONS = 3_000;
    /** Upper bound on the bytes a message spans in the typed buffer. */
    static final long MAX_FOOTPRINT = 1 << 20;
    /** Upper bound on packed bytes of a message. */
    static final long MAX_PACKED = 256 << 10;

    private final SplittableRandom rnd;
    private final TypeMapOracle bounds = new TypeMapOracle();

    private RandomTypes(SplittableRandom rnd) {
        this.rnd = rnd;
    }

    /** @return the case for {@code seed}: always the same type and count for the same seed */
    public static TypeCase generate(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        while (true) {
            RandomTypes g = new RandomTypes(rnd);
            long count = rnd.nextInt(40) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 6 : 3);
            int depth = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(MAX_DEPTH) : 2 + rnd.nextInt(MAX_DEPTH - 1);
            Datatype t = g.type(depth, MAX_ENTRIES / Math.max(1, count));
            if (entries(t, new IdentityHashMap<>()) > MAX_ENTRIES / Math.max(1, count)) {
                continue;
            }
            TypeMapOracle oracle = new TypeMapOracle();
            Pieces message = oracle.message(t, count);
            long span = message.isEmpty() ? 0 : message.maxEnd() - message.minOffset();
            if (message.count() > MAX_REGIONS || span > MAX_FOOTPRINT || message.total() > MAX_PACKED) {
                continue;
            }
            return new TypeCase(seed, t, count, oracle.expected(t), message);
        }
    }

    /** @return named-type entries in one element, or more than MAX_ENTRIES if that is exceeded */
    static long entries(Datatype t, Map<Datatype, Long> memo) {
        Long known = memo.get(t);
        if (known != null) {
            return known;
        }
        long n = 0;
        if (TypeMapOracle.children(t).isEmpty()) {
            n = 1;
        } else {
            // extents do not change how many copies there are
            for (TypeMapDefinition.Copy c : TypeMapDefinition.copies(t, x -> 0)) {
                n += entries(c.old(), memo);
                if (n > MAX_ENTRIES) {
                    break;
                }
            }
        }
        memo.put(t, n);
        return n;
    }

    /**
     * @param depth  constructor levels still allowed (0: a named type)
     * @param budget named-type entries this type may hold (at least 1)
     */
    private Datatype type(int depth, long budget) {
        if (depth == 0 || budget < 2) {
            return leaf(budget);
        }
        return switch (rnd.nextInt(11)) {
            case 0 -> {
                long n = fit(count(), budget);
                yield Datatype.contiguous(n, child(depth, budget / Math.max(1, n)));
            }
            case 1 -> {
                long n = fit(count(), budget);
                long bl = fit(blocklength(), budget / Math.max(1, n));
                Datatype old = child(depth, budget / Math.max(1, n * bl));
                // stride in extents: zero, negative, or smaller than the block (overlapping) included
                yield Datatype.vector(n, bl, rnd.nextInt(-4, 6), old);
            }
            case 2 -> {
                long n = fit(count(), budget);
                long bl = fit(blocklength(), budget / Math.max(1, n));
                Datatype old = child(depth, budget / Math.max(1, n * bl));
                yield Datatype.hvector(n, bl, byteStride(old, bl), old);
            }
            case 3, 4 -> {
                long[] bls = blocklengths(budget);
                Datatype old = child(depth, budget / Math.max(1, sum(bls)));
                long[] disps = new long[bls.length];
                boolean bytes = rnd.nextBoolean();
                for (int k = 0; k < bls.length; k++) {
                    long unit = bytes ? ext(old) : 1;
                    disps[k] = k > 0 && rnd.nextInt(3) == 0 ? disps[k - 1] + bls[k - 1] * unit // end to end
                            : bytes ? byteDisplacement(old) : rnd.nextInt(-6, 10);
                }
                yield bytes ? Datatype.hindexed(bls, disps, old) : Datatype.indexed(bls, disps, old);
            }
            case 5, 6 -> {
                int n = (int) fit(blocks(), budget);
                long bl = fit(blocklength(), budget / Math.max(1, n));
                Datatype old = child(depth, budget / Math.max(1, n * bl));
                long[] disps = new long[n];
                boolean bytes = rnd.nextBoolean();
                for (int k = 0; k < n; k++) {
                    long unit = bytes ? ext(old) : 1;
                    disps[k] = k > 0 && rnd.nextInt(3) == 0 ? disps[k - 1] + bl * unit
                            : bytes ? byteDisplacement(old) : rnd.nextInt(-6, 10);
                }
                yield bytes ? Datatype.hindexedBlock(bl, disps, old) : Datatype.indexedBlock(bl, disps, old);
            }
            case 7 -> struct(depth, budget);
            case 8 -> subarray(depth, budget);
            case 9 -> resized(child(depth, budget));
            default -> child(depth, budget).dup();
        };
    }

    /** A component one level down, or sometimes shallower, so that trees are not all full. */
    private Datatype child(int depth, long budget) {
        return type(rnd.nextInt(5) == 0 ? rnd.nextInt(depth) : depth - 1, Math.max(1, budget));
    }

    private static long fit(long want, long budget) {
        return Math.min(want, Math.max(1, budget));
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    private Datatype named() {
        return Named.ALL.get(rnd.nextInt(Named.ALL.size()));
    }

    /**
     * Mostly a named type; sometimes a run of bytes or shorts of odd or large length, because the
     * copy kernels treat block lengths by size class (scalar words with an overlapping tail, vector
     * words, bulk copies from 64 KiB) and named types alone make only short, even blocks.
     */
    private Datatype leaf(long budget) {
        int r = rnd.nextInt(100);
        // big blocks only fit where the budget is large (near the root), so they are likelier there
        int big = budget > 70_000 ? 88 : 99;
        long len = r < 72 ? 0 : r < 90 ? 3 + rnd.nextInt(38) : r < big ? 64 + rnd.nextInt(1100)
                : 65_536 + rnd.nextInt(4096);
        if (len == 0 || len > budget) {
            return named();
        }
        return Datatype.contiguous(len, rnd.nextInt(4) == 0 ? Named.SHORT : Named.BYTE);
    }

    private long count() {
        int r = rnd.nextInt(100);
        return r < 4 ? 0 : r < 80 ? 1 + rnd.nextInt(4) : 5 + rnd.nextInt(8);
    }

    private long blocklength() {
        int r = rnd.nextInt(100);
        return r < 4 ? 0 : r < 90 ? 1 + rnd.nextInt(3) : 4 + rnd.nextInt(3);
    }

    private int blocks() {
        int r = rnd.nextInt(100);
        // many blocks now and then: patterns of more than 16 runs take another kernel path
        return r < 4 ? 0 : r < 90 ? 1 + rnd.nextInt(5) : 10 + rnd.nextInt(15);
    }

    private long[] blocklengths(long budget) {
        long[] bls = new long[(int) fit(blocks(), budget)];
        long left = budget;
        for (int k = 0; k < bls.length; k++) {
            bls[k] = fit(blocklength(), Math.max(1, left / (bls.length - k)));
            left -= bls[k];
        }
        return bls;
    }

    private long ext(Datatype t) {
        return bounds.extent(t);
    }

    /** A byte stride around multiples of the old extent: exact (blocks end to end), nudged, or arbitrary. */
    private long byteStride(Datatype old, long bl) {
        long e = ext(old);
        return switch (rnd.nextInt(6)) {
            case 0, 1 -> rnd.nextInt(-3, 5) * e;
            case 2 -> rnd.nextInt(-3, 5) * e + rnd.nextInt(-3, 4);
            case 3 -> bl * e;
            default -> rnd.nextInt(-64, 65);
        };
    }

    private long byteDisplacement(Datatype old) {
        return rnd.nextBoolean() ? rnd.nextInt(-4, 8) * ext(old) + (rnd.nextBoolean() ? 0 : rnd.nextInt(-3, 4))
                : rnd.nextInt(-64, 97);
    }

    private Datatype struct(int depth, long budget) {
        int n = rnd.nextInt(25) == 0 ? 0 : 1 + rnd.nextInt(4);
        long[] bls = new long[n];
        long[] disps = new long[n];
        Datatype[] types = new Datatype[n];
        long share = Math.max(1, budget / Math.max(1, n));
        int mode = n > 1 ? rnd.nextInt(5) : 4;
        if (mode == 0) {
            // a regular struct: one type at equal steps, which the engine turns into a vector
            long bl = fit(1 + rnd.nextInt(2), share);
            Datatype m = child(depth, share / bl);
            long step = rnd.nextBoolean() ? bl * ext(m) : rnd.nextInt(-32, 48);
            long d0 = rnd.nextInt(-16, 17);
            for (int k = 0; k < n; k++) {
                types[k] = m;
                bls[k] = bl;
                disps[k] = d0 + k * step;
            }
            return Datatype.struct(bls, disps, types);
        }
        if (mode == 1) {
            // look-alike members: the same size at equal steps but different layouts, which the
            // engine must not mistake for a regular struct
            Datatype x = named();
            long copies = 2 + rnd.nextInt(3);
            long step = rnd.nextInt(-40, 64);
            for (int k = 0; k < n; k++) {
                types[k] = rnd.nextBoolean() ? Datatype.vector(copies, 1, rnd.nextInt(-3, 4), x)
                        : Datatype.hvector(copies, 1, rnd.nextInt(-20, 21), x);
                bls[k] = 1;
                disps[k] = k * step;
            }
            return Datatype.struct(bls, disps, types);
        }
        for (int k = 0; k < n; k++) {
            bls[k] = fit(blocklength(), share);
            // sharing the previous member's type exercises the engine's identity shortcuts
            types[k] = k > 0 && rnd.nextInt(4) == 0 ? types[k - 1] : child(depth, share / Math.max(1, bls[k]));
            disps[k] = k > 0 && rnd.nextInt(3) == 0 ? disps[k - 1] + bls[k - 1] * ext(types[k - 1])
                    : rnd.nextInt(-48, 81);
        }
        return Datatype.struct(bls, disps, types);
    }

    private Datatype subarray(int depth, long budget) {
        int n = 1 + rnd.nextInt(3);
        long[] sizes = new long[n];
        long[] subsizes = new long[n];
        long[] starts = new long[n];
        long left = budget;
        for (int d = 0; d < n; d++) {
            sizes[d] = 1 + rnd.nextInt(n == 1 ? 8 : n == 2 ? 5 : 4);
            subsizes[d] = fit(1 + rnd.nextInt((int) sizes[d]), left);
            left = Math.max(1, left / subsizes[d]);
            starts[d] = rnd.nextInt((int) (sizes[d] - subsizes[d] + 1));
        }
        return Datatype.subarray(sizes, subsizes, starts, rnd.nextBoolean() ? Order.C : Order.FORTRAN,
                child(depth, left));
    }

    private Datatype resized(Datatype old) {
        TypeMapOracle.Expected b = bounds.expected(old);
        long lb = switch (rnd.nextInt(3)) {
            case 0 -> b.lb();
            case 1 -> b.trueLb() + rnd.nextInt(-8, 9);
            default -> rnd.nextInt(-32, 33);
        };
        long te = b.trueExtent();
        long extent = switch (rnd.nextInt(6)) {
            case 0 -> b.extent();
            case 1 -> te + rnd.nextInt(17);
            case 2, 3 -> te > 1 ? rnd.nextLong(1, te) : 1; // smaller than the true extent: elements overlap
            case 4 -> 0;
            default -> b.size();
        };
        return Datatype.resized(lb, Math.max(0, extent), old);
    }
}
