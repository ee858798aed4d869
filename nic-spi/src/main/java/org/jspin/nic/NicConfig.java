package org.jspin.nic;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The protocol settings of a NIC, validated once when built.
 *
 * @param eagerLimit      messages up to this many bytes go eagerly, in one packet; larger ones by rendezvous
 * @param chunkSize       payload bytes per rendezvous data packet (also the staging buffer size)
 * @param packets         packets each rank may have in flight (the pool; bounds staging memory)
 * @param streamingUnpack whether a receive unpacks each chunk as it arrives (true) or stages the
 *                        whole message and unpacks it at the end (false)
 */
public record NicConfig(int eagerLimit, int chunkSize, int packets, boolean streamingUnpack) {
    /** Defaults: 16 KiB eager, 256 KiB chunks, 64 packets, streaming unpack. */
    public static final NicConfig DEFAULT = new NicConfig(16 << 10, 256 << 10, 64, true);

    /** Packets kept back for control traffic (RTS, CTS, eager) so bulk data cannot starve it. */
    public static final int CONTROL_RESERVE = 4;

    /**
     * @throws MpiException ERR_ARG naming the setting out of range
     */
    public NicConfig {
        if (eagerLimit < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "eager limit must be non-negative, got " + eagerLimit);
        }
        if (chunkSize < 64) {
            throw new MpiException(ErrorClass.ERR_ARG, "chunk size must be at least 64 bytes, got " + chunkSize);
        }
        if (eagerLimit > chunkSize) {
            throw new MpiException(ErrorClass.ERR_ARG, "eager limit " + eagerLimit
                    + " must not exceed the chunk size " + chunkSize + " (an eager message is one packet)");
        }
        if (packets < 2 * CONTROL_RESERVE || packets > 1 << 15) {
            throw new MpiException(ErrorClass.ERR_ARG, "packets in flight must be in [" + 2 * CONTROL_RESERVE
                    + ", " + (1 << 15) + "], got " + packets);
        }
    }

    /** @return a copy with another eager limit */
    public NicConfig withEagerLimit(int bytes) {
        return new NicConfig(bytes, chunkSize, packets, streamingUnpack);
    }

    /** @return a copy with another chunk size */
    public NicConfig withChunkSize(int bytes) {
        return new NicConfig(eagerLimit, bytes, packets, streamingUnpack);
    }

    /** @return a copy with another packet pool size */
    public NicConfig withPackets(int count) {
        return new NicConfig(eagerLimit, chunkSize, count, streamingUnpack);
    }

    /** @return a copy with streaming unpack on or off */
    public NicConfig withStreamingUnpack(boolean on) {
        return new NicConfig(eagerLimit, chunkSize, packets, on);
    }
}
