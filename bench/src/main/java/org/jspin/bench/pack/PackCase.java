package org.jspin.bench.pack;

import java.util.Objects;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.flat.RegionIterator;

/**
 * One pack/unpack benchmark case: a committed datatype and the element count of one message.
 *
 * @param name         the case's name in tables and JMH parameters (e.g. {@code vector_d_64B})
 * @param blockBytes   the mean length of the message's contiguous regions (merged as in
 *                     {@link Datatype#regions}), the x axis of the anchor tables
 * @param type         the committed datatype
 * @param count        elements per message
 * @param payloadBytes bytes of data in one message ({@code type.size() * count}, the packed size)
 */
public record PackCase(String name, double blockBytes, Datatype type, long count, long payloadBytes) {

    /** Checks that the fields agree with each other, so a case cannot lie about its payload. */
    public PackCase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (!type.isCommitted()) {
            throw new IllegalArgumentException(name + ": datatype is not committed");
        }
        if (payloadBytes != type.packSize(count)) {
            throw new IllegalArgumentException(name + ": payload " + payloadBytes + " B but the type packs "
                    + type.packSize(count) + " B");
        }
    }

    /**
     * Commits {@code type} and derives the payload and the mean region length from it, so that no
     * case states a block size that its type map does not have.
     */
    public static PackCase of(String name, Datatype type, long count) {
        type.commit();
        long payload = type.packSize(count);
        return new PackCase(name, meanRegionBytes(type, count, payload), type, count, payload);
    }

    /** @return payload bytes per merged region of {@code count} elements (0 for an empty message) */
    static double meanRegionBytes(Datatype type, long count, long payload) {
        long regions = 0;
        for (RegionIterator it = type.regions(count); it.advance(); ) {
            regions++;
        }
        return regions == 0 ? 0 : (double) payload / regions;
    }

    @Override
    public String toString() {
        return name + " (" + payloadBytes + " B, mean region " + blockBytes + " B)";
    }
}
