package org.jspin.nic.engine;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.SignatureHash;
import org.jspin.datatype.Signatures;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.match.MatchBits;

/**
 * How much of a matched message a receive takes, decided once at the match: all of it; the first
 * bytes that fit, with ERR_TRUNCATE; or none, with ERR_TYPE when the message's type signature is
 * not a prefix of the receive's (compared by hash over the same number of leading elements).
 * Nothing is allocated for a message the receive takes whole.
 */
final class Acceptance {
    private Acceptance() {
    }

    /**
     * @param e        the receive's match entry (count and type)
     * @param capacity the receive's bytes
     * @param bits     the message's match bits (source and tag, for the error)
     * @param length   the message's bytes
     * @param hash     the hash of the message's type signature
     * @param elements the message's basic elements (negative: untyped, matches anything)
     * @return why the receive takes less than the whole message (ERR_TYPE or ERR_TRUNCATE), or null
     */
    static MpiException refusal(MatchEntry e, long capacity, long bits, long length, long hash, long elements) {
        MpiException signature = signatureMismatch(e, hash, elements, bits, length, capacity);
        if (signature != null) {
            return signature;
        }
        if (length > capacity) {
            return new MpiException(ErrorClass.ERR_TRUNCATE, "message of " + length + " bytes from rank "
                    + MatchBits.source(bits) + " with tag " + MatchBits.tag(bits) + " is longer than the receive"
                    + " buffer's " + capacity + " bytes (" + e.count() + " x " + e.type() + "); received the first "
                    + capacity);
        }
        return null;
    }

    /** @return the bytes a receive of {@code capacity} takes of a message of {@code length}, given its {@link #refusal} */
    static long accepted(MpiException refusal, long length, long capacity) {
        if (refusal == null) {
            return length;
        }
        return refusal.errorClass() == ErrorClass.ERR_TRUNCATE ? capacity : 0;
    }

    /**
     * @return why the message's type signature cannot be received by {@code e}'s, or null if it can
     *         (or is longer and fits where it matches: a truncation, reported as such)
     */
    private static MpiException signatureMismatch(MatchEntry e, long hash, long elements, long bits, long length,
                                                  long capacity) {
        Datatype t = e.type();
        if (elements < 0 || SignatureHash.untyped(t)) {
            return null; // bytes on either side match anything, as MPI_BYTE and MPI_PACKED do
        }
        long receivable;
        try {
            receivable = Math.multiplyExact(e.count(), Signatures.basicElements(t));
        } catch (ArithmeticException overflow) {
            receivable = Long.MAX_VALUE;
        }
        if (elements > receivable) {
            if (length > capacity) {
                return null; // longer than the receive: reported as truncation
            }
            // had its first elements been the receive's, the message would take more bytes than the receive
            // has; it takes fewer, so its elements differ (8 ints into 4 doubles, say)
            return new MpiException(ErrorClass.ERR_TYPE, "the type signature of the message from rank "
                    + MatchBits.source(bits) + " with tag " + MatchBits.tag(bits) + " (" + elements
                    + " basic elements in " + length + " bytes) differs from that of the receive's " + e.count()
                    + " x " + t + " (" + receivable + " basic elements in " + capacity + " bytes)");
        }
        if (SignatureHash.ofPrefix(t, elements) == hash) {
            return null;
        }
        return new MpiException(ErrorClass.ERR_TYPE, "the type signature of the message from rank "
                + MatchBits.source(bits) + " with tag " + MatchBits.tag(bits) + " (" + elements
                + " basic elements) differs from that of the receive's " + e.count() + " x " + t);
    }
}
