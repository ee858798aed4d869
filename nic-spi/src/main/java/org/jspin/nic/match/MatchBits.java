package org.jspin.nic.match;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The MPI envelope packed into 64 Portals 4 match bits: context id (14 bits), source rank (18 bits)
 * and tag (32 bits, of which MPI uses the non-negative half). A receive's wildcards become ignore
 * bits, so one test, {@code ((incoming ^ match) & ~ignore) == 0}, matches exact receives and
 * wildcard ones alike, as a Portals match entry does.
 */
public final class MatchBits {
    /** {@code MPI_ANY_SOURCE}. */
    public static final int ANY_SOURCE = -1;
    /** {@code MPI_ANY_TAG}. */
    public static final int ANY_TAG = -1;
    /** Largest tag ({@code MPI_TAG_UB}). */
    public static final int TAG_UB = Integer.MAX_VALUE;
    /** Largest rank the bits hold. */
    public static final int MAX_RANK = (1 << 18) - 1;
    /** Largest context id the bits hold. */
    public static final int MAX_CONTEXT = (1 << 14) - 1;

    private static final int TAG_BITS = 32;
    private static final int SOURCE_BITS = 18;
    private static final long TAG_MASK = (1L << TAG_BITS) - 1;
    private static final long SOURCE_MASK = ((1L << SOURCE_BITS) - 1) << TAG_BITS;

    private MatchBits() {
    }

    /**
     * @return the match bits of a message from {@code source} with {@code tag} in {@code context}
     * @throws MpiException ERR_COMM, ERR_RANK or ERR_TAG naming the value out of range
     */
    public static long of(int context, int source, int tag) {
        checkContext(context);
        if (source < 0 || source > MAX_RANK) {
            throw new MpiException(ErrorClass.ERR_RANK, "source rank must be in [0, " + MAX_RANK + "], got " + source);
        }
        if (tag < 0) {
            throw new MpiException(ErrorClass.ERR_TAG, "tag must be in [0, " + TAG_UB + "], got " + tag);
        }
        return ((long) context << (TAG_BITS + SOURCE_BITS)) | ((long) source << TAG_BITS) | tag;
    }

    /**
     * @return the match bits a receive posts for {@code source} (or {@link #ANY_SOURCE}) and
     *         {@code tag} (or {@link #ANY_TAG}); wildcard fields are zero and set in {@link #ignore}
     */
    public static long select(int context, int source, int tag) {
        if (source != ANY_SOURCE && (source < 0 || source > MAX_RANK)) {
            throw new MpiException(ErrorClass.ERR_RANK,
                    "source rank must be in [0, " + MAX_RANK + "] or ANY_SOURCE, got " + source);
        }
        if (tag != ANY_TAG && tag < 0) {
            throw new MpiException(ErrorClass.ERR_TAG, "tag must be in [0, " + TAG_UB + "] or ANY_TAG, got " + tag);
        }
        return of(context, source == ANY_SOURCE ? 0 : source, tag == ANY_TAG ? 0 : tag);
    }

    /** @return the ignore bits of a receive with these wildcards */
    public static long ignore(int source, int tag) {
        return (source == ANY_SOURCE ? SOURCE_MASK : 0) | (tag == ANY_TAG ? TAG_MASK : 0);
    }

    /** @return whether a message with {@code bits} matches an entry posting {@code match}/{@code ignore} */
    public static boolean matches(long bits, long match, long ignore) {
        return ((bits ^ match) & ~ignore) == 0;
    }

    /** @return the context id in {@code bits} */
    public static int context(long bits) {
        return (int) (bits >>> (TAG_BITS + SOURCE_BITS));
    }

    /** @return the source rank in {@code bits} */
    public static int source(long bits) {
        return (int) ((bits & SOURCE_MASK) >>> TAG_BITS);
    }

    /** @return the tag in {@code bits} */
    public static int tag(long bits) {
        return (int) (bits & TAG_MASK);
    }

    private static void checkContext(int context) {
        if (context < 0 || context > MAX_CONTEXT) {
            throw new MpiException(ErrorClass.ERR_COMM, "context id must be in [0, " + MAX_CONTEXT + "], got " + context);
        }
    }
}
