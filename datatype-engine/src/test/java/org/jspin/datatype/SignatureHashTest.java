package org.jspin.datatype;

import static org.jspin.datatype.testing.MpiAssertions.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.jspin.datatype.testing.Named;
import org.jspin.datatype.testing.RandomTypes;
import org.jspin.datatype.testing.TypeCase;
import org.jspin.datatype.testing.TypeMapDefinition;
import org.jspin.datatype.testing.TypeMapOracle;
import org.jspin.error.ErrorClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SignatureHash} against the polynomial computed entry by entry over the type signature
 * expanded from the type-map definition (not from the engine), for random types, whole messages and
 * prefixes cut anywhere; and the examples the runtime's type check relies on.
 */
class SignatureHashTest {
    private static final TypeMapOracle ORACLE = new TypeMapOracle();

    private static final Datatype BYTE = Named.BYTE;
    private static final Datatype INT = Named.INT;
    private static final Datatype FLOAT = Named.FLOAT;
    private static final Datatype DOUBLE = Named.DOUBLE;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void composedHashesMatchTheExpandedSignature(long seed) {
        TypeCase c = RandomTypes.generate(seed);
        Datatype t = c.type();
        List<NamedType> one = new ArrayList<>();
        expand(t, one);
        int len = one.size();
        assertEquals(len, Signatures.basicElements(t), () -> "basic elements, " + c);

        // naive[i]: the polynomial over the first i entries of t, t, t, ..., one term at a time
        int copies = (int) Math.max(3, c.count()) + 1;
        long[] naive = new long[copies * len + 1];
        long power = 1;
        for (int i = 0; i < copies * len; i++) {
            naive[i + 1] = naive[i] + SignatureHash.code(one.get(i % len)) * power;
            power *= SignatureHash.BASE;
        }

        for (long count : new long[] {0, 1, 2, 3, c.count()}) {
            long expect = naive[(int) (count * len)];
            assertEquals(expect, SignatureHash.of(t, count), () -> "of(t, " + count + "), " + c);
            assertEquals(expect, SignatureHash.ofPrefix(t, count * len),
                    () -> "ofPrefix(t, " + count * len + ") for " + count + " elements, " + c);
        }

        if (len > 0) {
            SplittableRandom rnd = new SplittableRandom(seed);
            List<Integer> cuts = new ArrayList<>(List.of(1, len - 1, len + 1, 2 * len - 1, 2 * len + 1, 3 * len));
            for (int k = 0; k < 30; k++) {
                cuts.add(rnd.nextInt(copies * len + 1)); // most of them cross element boundaries
            }
            for (int r : cuts) {
                assertEquals(naive[r], SignatureHash.ofPrefix(t, r), () -> "ofPrefix(t, " + r + "), " + c);
            }
        } else {
            assertMpiError(ErrorClass.ERR_COUNT, () -> SignatureHash.ofPrefix(t, 1), "1");
        }

        boolean bytesOnly = one.stream().allMatch(n -> n == BYTE);
        assertEquals(bytesOnly, SignatureHash.untyped(t), () -> "untyped, " + c);

        // layout-only wrappers keep the signature
        Datatype wrapped = Datatype.resized(-3, 7, t).dup();
        assertEquals(SignatureHash.of(t, 2), SignatureHash.of(wrapped, 2), () -> "resized dup, " + c);
    }

    /** Appends {@code t}'s named-type entries, in type-map order. */
    private static void expand(Datatype t, List<NamedType> out) {
        if (t instanceof NamedType n) {
            out.add(n);
            return;
        }
        for (TypeMapDefinition.Copy copy : TypeMapDefinition.copies(t, ORACLE::extent)) {
            expand(copy.old(), out);
        }
    }

    private static Datatype struct(Datatype... members) {
        long[] bls = new long[members.length];
        long[] disps = new long[members.length];
        long at = 0;
        for (int k = 0; k < members.length; k++) {
            bls[k] = 1;
            disps[k] = at;
            at += members[k].extent();
        }
        return Datatype.struct(bls, disps, members);
    }

    @Test
    void namedTypeCodesAreOddAndDistinct() {
        Set<Long> codes = new HashSet<>();
        for (NamedType n : NamedType.all()) {
            long code = SignatureHash.code(n);
            assertEquals(1, code & 1, () -> n + " code " + code);
            assertTrue(codes.add(code), () -> n + " code " + code + " is taken");
        }
    }

    @Test
    void namedTypesOfTheSameSizeDiffer() {
        assertNotEquals(SignatureHash.of(INT, 1), SignatureHash.of(FLOAT, 1));
        assertNotEquals(SignatureHash.of(INT, 5), SignatureHash.of(FLOAT, 5));
        assertNotEquals(SignatureHash.of(Named.LONG, 1), SignatureHash.of(DOUBLE, 1));
    }

    @Test
    void memberOrderMatters() {
        assertNotEquals(SignatureHash.of(struct(INT, DOUBLE), 1), SignatureHash.of(struct(DOUBLE, INT), 1));
        // a struct is its members in order
        long expect = SignatureHash.ofPrefix(struct(INT, DOUBLE, INT, DOUBLE), 4);
        assertEquals(expect, SignatureHash.of(struct(INT, DOUBLE), 2));
        assertEquals(expect, SignatureHash.of(struct(struct(INT, DOUBLE), struct(INT, DOUBLE)), 1));
    }

    @Test
    void theLayoutDoesNotMatter() {
        long three = SignatureHash.of(Datatype.contiguous(3, INT), 1);
        assertEquals(three, SignatureHash.of(Datatype.vector(3, 1, 2, INT), 1));
        assertEquals(three, SignatureHash.of(Datatype.hvector(3, 1, -40, INT), 1));
        assertEquals(three, SignatureHash.of(Datatype.indexed(new long[] {2, 1}, new long[] {5, 0}, INT), 1));
        assertEquals(three, SignatureHash.of(Datatype.subarray(new long[] {4, 4}, new long[] {1, 3},
                new long[] {2, 1}, Order.FORTRAN, INT), 1));
        assertEquals(three, SignatureHash.of(INT, 3));
        Datatype s = struct(INT, DOUBLE);
        assertEquals(SignatureHash.of(s, 4), SignatureHash.of(Datatype.resized(0, 100, s), 4));
        assertEquals(SignatureHash.of(s, 4), SignatureHash.of(s.dup(), 4));
        assertEquals(SignatureHash.of(s, 4), SignatureHash.of(Datatype.resized(-8, 2, s.dup()).dup(), 4));
    }

    @Test
    void prefixesCutInsideElements() {
        Datatype s = Datatype.struct(new long[] {1, 2}, new long[] {0, 8}, new Datatype[] {INT, DOUBLE});
        // s, s, ... = int double double int double double int ...
        assertEquals(SignatureHash.of(struct(INT, DOUBLE, DOUBLE, INT), 1), SignatureHash.ofPrefix(s, 4));
        assertEquals(SignatureHash.of(struct(INT, DOUBLE), 1), SignatureHash.ofPrefix(s, 2));
        assertEquals(SignatureHash.of(INT, 1), SignatureHash.ofPrefix(s, 1));
        assertNotEquals(SignatureHash.ofPrefix(s, 3), SignatureHash.ofPrefix(s, 2));
        // the receiver's check: int int double sent does not match an int double int receive
        assertNotEquals(SignatureHash.of(struct(INT, INT, DOUBLE), 1),
                SignatureHash.ofPrefix(struct(INT, DOUBLE, INT), 3));
    }

    @Test
    void emptyTypesHashLikeNothing() {
        Datatype empty = Datatype.contiguous(0, INT);
        assertEquals(0, SignatureHash.of(empty, 7));
        assertEquals(0, SignatureHash.of(INT, 0));
        assertEquals(0, SignatureHash.of(Datatype.vector(3, 0, 1, INT), 1));
        assertEquals(0, SignatureHash.of(Datatype.struct(new long[0], new long[0], new Datatype[0]), 2));
        assertEquals(0, SignatureHash.ofPrefix(empty, 0));
        assertMpiError(ErrorClass.ERR_COUNT, () -> SignatureHash.ofPrefix(empty, 3), "3");
        // empty members and blocks add nothing
        Datatype s = Datatype.struct(new long[] {1, 0, 1}, new long[] {0, 4, 8},
                new Datatype[] {INT, DOUBLE, empty});
        assertEquals(SignatureHash.of(INT, 1), SignatureHash.of(s, 1));
        assertEquals(SignatureHash.of(INT, 2), SignatureHash.ofPrefix(s, 2));
        Datatype x = Datatype.indexed(new long[] {0, 2, 0}, new long[] {0, 1, 4}, INT);
        assertEquals(SignatureHash.of(INT, 2), SignatureHash.of(x, 1));
        // copy counts of an empty type are bounded by no size: they must not be multiplied out
        Datatype huge = Datatype.indexed(new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, new long[] {0, 0}, empty);
        assertEquals(0, SignatureHash.of(huge, Long.MAX_VALUE));
        assertTrue(SignatureHash.untyped(huge));
    }

    @Test
    void hugeCountsTakeLogarithmicTime() {
        long n = 1L << 50;
        long h = SignatureHash.of(INT, n);
        assertEquals(h, SignatureHash.ofPrefix(INT, n));
        assertEquals(h, SignatureHash.of(Datatype.contiguous(1L << 25, INT), 1L << 25));
        assertEquals(h, SignatureHash.ofPrefix(Datatype.vector(1L << 20, 1L << 10, 1L << 10, INT), n));
        long odd = (1L << 40) + 12345;
        assertEquals(SignatureHash.of(struct(INT, DOUBLE), odd),
                SignatureHash.ofPrefix(struct(INT, DOUBLE), 2 * odd));
        assertNotEquals(SignatureHash.ofPrefix(struct(INT, DOUBLE), 2 * odd),
                SignatureHash.ofPrefix(struct(INT, DOUBLE), 2 * odd + 1));
    }

    @Test
    void untypedMeansOnlyBytes() {
        assertTrue(SignatureHash.untyped(BYTE));
        assertTrue(SignatureHash.untyped(Datatype.contiguous(5, BYTE)));
        assertTrue(SignatureHash.untyped(struct(BYTE, Datatype.vector(2, 3, 4, BYTE))));
        assertTrue(SignatureHash.untyped(Datatype.resized(0, 16, BYTE).dup()));
        assertTrue(SignatureHash.untyped(Datatype.contiguous(0, INT)));
        assertTrue(SignatureHash.untyped(Datatype.struct(new long[0], new long[0], new Datatype[0])));
        assertTrue(SignatureHash.untyped(Datatype.struct(new long[] {3, 0}, new long[] {0, 8},
                new Datatype[] {BYTE, DOUBLE})));
        assertFalse(SignatureHash.untyped(INT));
        assertFalse(SignatureHash.untyped(struct(BYTE, INT)));
        assertFalse(SignatureHash.untyped(Datatype.contiguous(4, Named.SHORT)));
    }

    @Test
    void badArguments() {
        assertMpiError(ErrorClass.ERR_COUNT, () -> SignatureHash.of(INT, -1), "-1");
        assertMpiError(ErrorClass.ERR_COUNT, () -> SignatureHash.ofPrefix(INT, -5), "-5");
        assertMpiError(ErrorClass.ERR_COUNT, () -> SignatureHash.of(Datatype.contiguous(2, INT), Long.MAX_VALUE));
        assertMpiError(ErrorClass.ERR_TYPE, () -> SignatureHash.of(null, 1));
        assertMpiError(ErrorClass.ERR_TYPE, () -> SignatureHash.untyped(null));
    }
}
