package org.jspin.datatype;

import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * A 64-bit hash of a type signature (the sequence of named types of a type map, displacements
 * aside), for the runtime's type-matching check: a sender ships the hash of its message's signature
 * with its count of basic elements N, and the receiver compares it with the hash of the first N basic
 * elements of its own receive signature ({@link #ofPrefix}).
 *
 * <p>The hash of basic elements {@code c_0 .. c_(n-1)} is the polynomial
 * {@code sum c_i * B^i mod 2^64}, where {@code c_i} is a fixed odd code of the i-th named type and
 * {@code B} an odd constant. Such a hash composes: {@code H(a || b) = H(a) + B^|a| * H(b)}, and a run
 * of n copies of x is {@code H(x) * (1 + B^|x| + ... + B^((n-1)|x|))}. So it is computed from the type
 * tree, never from the expanded type map: the cost is O(type tree size * log count), whatever the
 * number of elements. Types sharing a subtree compute it once per call.
 *
 * <p>The hash is a check, not a proof: different signatures collide with a small probability.
 */
public final class SignatureHash {
    /**
     * The polynomial's base. Odd so that its powers never vanish mod 2^64 (an even base would make
     * every element from the 64th on irrelevant); the golden-ratio constant spreads its bits.
     */
    static final long BASE = 0x9E3779B97F4A7C15L;

    /** The hash of an empty signature: no elements, and B^0 = 1 to shift what follows by. */
    private static final Sig EMPTY = new Sig(0, 1, 0);

    private SignatureHash() {
    }

    /**
     * The hash, {@code B^length} (mod 2^64) and length of a signature: what concatenating or
     * repeating it needs.
     */
    private record Sig(long hash, long power, long length) {
        /** @return the signature of this one followed by {@code next} */
        Sig then(Sig next) {
            return new Sig(hash + power * next.hash, power * next.power,
                    Args.add(length, next.length, "element count"));
        }
    }

    /**
     * The hash of the signature of {@code count} consecutive elements of {@code t} (what a sender
     * ships with its message).
     *
     * @throws MpiException ERR_COUNT for a negative count, or one whose basic elements overflow 64 bits;
     *                      ERR_TYPE for a null type
     */
    public static long of(Datatype t, long count) {
        Args.type("datatype", t);
        Args.count("count", count);
        return repeat(signature(t, new IdentityHashMap<>()), count).hash();
    }

    /**
     * The hash of the first {@code elements} basic elements of {@code t, t, t, ...}: the signature of
     * {@code t} repeated as often as needed and cut after {@code elements} entries, possibly inside an
     * element. {@code of(t, c) == ofPrefix(t, c * Signatures.basicElements(t))}.
     *
     * @throws MpiException ERR_COUNT for a negative {@code elements}, or a positive one when {@code t}
     *                      has no basic elements (no repetition of it reaches that many); ERR_TYPE for a
     *                      null type
     */
    public static long ofPrefix(Datatype t, long elements) {
        Args.type("datatype", t);
        Args.count("elements", elements);
        if (elements == 0) {
            return 0;
        }
        Map<Datatype, Sig> memo = new IdentityHashMap<>();
        Sig one = signature(t, memo);
        if (one.length() == 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, "a prefix of " + elements
                    + " basic elements was asked of a type with none: " + t.abbreviated());
        }
        return copies(t, one, elements, memo);
    }

    /**
     * Whether {@code t} carries no type information: every basic element is a byte, or there is none
     * at all. The runtime lets such types match any signature, as {@code MPI_BYTE} is used for raw
     * transfers. (The engine has no {@code MPI_PACKED}; bytes play its part.)
     *
     * @throws MpiException ERR_TYPE for a null type
     */
    public static boolean untyped(Datatype t) {
        Args.type("datatype", t);
        return bytesOnly(t);
    }

    private static boolean bytesOnly(Datatype t) {
        return switch (t) {
            case NamedType n -> n == Datatype.BYTE;
            case StructType s -> {
                long[] bls = s.blocklengths();
                List<Datatype> types = s.types();
                for (int k = 0; k < bls.length; k++) {
                    // a member with no copies contributes no elements, whatever its type
                    if (bls[k] != 0 && !bytesOnly(types.get(k))) {
                        yield false;
                    }
                }
                yield true;
            }
            // the old type first: only when it has elements is its number of copies sure to fit a long
            default -> bytesOnly(old(t)) || copiesOfOld(t) == 0;
        };
    }

    // ---- whole signatures -----------------------------------------------------------------------

    /** The signature of one element of {@code t}, memoised by identity so shared subtrees cost once. */
    private static Sig signature(Datatype t, Map<Datatype, Sig> memo) {
        Sig known = memo.get(t);
        if (known != null) {
            return known;
        }
        Sig s = switch (t) {
            case NamedType n -> new Sig(code(n), BASE, 1);
            case StructType st -> {
                Sig acc = EMPTY;
                long[] bls = st.blocklengths();
                List<Datatype> types = st.types();
                for (int k = 0; k < bls.length; k++) {
                    acc = acc.then(repeat(signature(types.get(k), memo), bls[k]));
                }
                yield acc;
            }
            default -> {
                Sig old = signature(old(t), memo);
                // an empty old type makes an empty signature however many copies there are; skipping
                // the count also avoids overflow on copy counts no size check bounded
                yield old.length() == 0 ? EMPTY : repeat(old, copiesOfOld(t));
            }
        };
        memo.put(t, s);
        return s;
    }

    /**
     * {@code n} copies of {@code x}, in O(log n) by doubling. The geometric sum
     * {@code 1 + P + ... + P^(n-1)} (P = B^|x|) is built up bit by bit from the top of n, as
     * {@code (P - 1)} has no inverse mod 2^64 (P is odd, so P - 1 is even) and the closed form is out.
     */
    private static Sig repeat(Sig x, long n) {
        long sum = 0; // 1 + P + ... + P^(k-1) for k the bits of n read so far
        long pow = 1; // P^k
        for (int bit = 63 - Long.numberOfLeadingZeros(n); bit >= 0; bit--) {
            sum += pow * sum; // k -> 2k: the second half is the first shifted by P^k
            pow *= pow;
            if ((n >>> bit & 1) != 0) { // k -> k + 1: one more term, P^k
                sum += pow;
                pow *= x.power();
            }
        }
        long length;
        try {
            length = Math.multiplyExact(x.length(), n);
        } catch (ArithmeticException e) {
            // inside a type the size bounds this; only a message count can get here
            throw new MpiException(ErrorClass.ERR_COUNT, "count " + n + " times " + x.length()
                    + " basic elements overflows 64 bits");
        }
        return new Sig(x.hash() * sum, pow, length);
    }

    // ---- prefixes -------------------------------------------------------------------------------

    /**
     * The hash of the first {@code r} basic elements of a run of copies of {@code old} (whose
     * signature is {@code o}, not empty): whole copies, then a prefix of one more.
     */
    private static long copies(Datatype old, Sig o, long r, Map<Datatype, Sig> memo) {
        Sig whole = repeat(o, r / o.length());
        return whole.hash() + whole.power() * prefix(old, r % o.length(), memo);
    }

    /** The hash of the first {@code r} basic elements of one element of {@code t}, r below its length. */
    private static long prefix(Datatype t, long r, Map<Datatype, Sig> memo) {
        if (r == 0) {
            return 0;
        }
        return switch (t) {
            case NamedType n -> throw new MpiException(ErrorClass.ERR_INTERN,
                    "prefix of " + r + " elements of the one-element type " + n);
            case StructType s -> {
                long hash = 0;
                long power = 1; // B^(elements of the members passed)
                long[] bls = s.blocklengths();
                List<Datatype> types = s.types();
                for (int k = 0; ; k++) { // ends inside some member: r is below the struct's length
                    Datatype m = types.get(k);
                    Sig ms = signature(m, memo);
                    long block = ms.length() * bls[k]; // fits: it is part of the struct's length
                    if (r < block) {
                        yield hash + power * copies(m, ms, r, memo);
                    }
                    Sig b = repeat(ms, bls[k]);
                    hash += power * b.hash();
                    power *= b.power();
                    r -= block;
                }
            }
            // every other constructor is copies of its old type (a non-empty one, as 0 < r)
            default -> copies(old(t), signature(old(t), memo), r, memo);
        };
    }

    // ---- constructors as runs of copies ---------------------------------------------------------

    /** @return the old type of a constructor other than named and struct */
    private static Datatype old(Datatype t) {
        return switch (t) {
            case DupType d -> d.old();
            case ResizedType x -> x.old();
            case ContiguousType c -> c.old();
            case VectorType v -> v.old();
            case HVectorType v -> v.old();
            case IndexedType x -> x.old();
            case HIndexedType x -> x.old();
            case IndexedBlockType x -> x.old();
            case HIndexedBlockType x -> x.old();
            case SubarrayType s -> s.old();
            case NamedType n -> throw new MpiException(ErrorClass.ERR_INTERN, "named type has no old type");
            case StructType s -> throw new MpiException(ErrorClass.ERR_INTERN, "struct has no single old type");
        };
    }

    /**
     * @return how many copies of {@link #old} make up {@code t}'s type map: its signature is that of
     *         old repeated so often, since displacements do not matter and every copy is the same type
     */
    private static long copiesOfOld(Datatype t) {
        return switch (t) {
            case DupType d -> 1;
            case ResizedType x -> 1;
            case ContiguousType c -> c.count();
            case VectorType v -> Args.mul(v.count(), v.blocklength(), "element count");
            case HVectorType v -> Args.mul(v.count(), v.blocklength(), "element count");
            case IndexedType x -> sum(x.blocklengths());
            case HIndexedType x -> sum(x.blocklengths());
            case IndexedBlockType x -> Args.mul(x.blocklength(), x.displacements().length, "element count");
            case HIndexedBlockType x -> Args.mul(x.blocklength(), x.displacementsBytes().length, "element count");
            case SubarrayType s -> product(s.subsizes());
            case NamedType n -> throw new MpiException(ErrorClass.ERR_INTERN, "named type has no old type");
            case StructType s -> throw new MpiException(ErrorClass.ERR_INTERN, "struct has no single old type");
        };
    }

    // ---- named-type codes -----------------------------------------------------------------------

    /**
     * The code of a named type in the polynomial. Derived from its name (FNV-1a over the UTF-8 bytes,
     * then a 64-bit finaliser so that similar names get unrelated codes), not from an ordinal or an
     * identity hash, so that every process and version of the runtime agrees on it. Forced odd: a
     * code must never be 0 (that element would not count), and odd codes stay non-zero times any
     * power of the odd base.
     */
    static long code(NamedType n) {
        long h = 0xCBF29CE484222325L; // FNV-1a offset basis
        for (byte b : n.name().getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        // MurmurHash3's fmix64
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h | 1;
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s = Args.add(s, v, "element count");
        }
        return s;
    }

    private static long product(long[] a) {
        long p = 1;
        for (long v : a) {
            p = Args.mul(p, v, "element count");
        }
        return p;
    }
}
