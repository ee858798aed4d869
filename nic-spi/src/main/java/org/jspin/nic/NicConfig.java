package org.jspin.nic;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.Fabric;
import org.jspin.settings.Settings;

/**
 * The protocol settings of a NIC, validated once when built.
 *
 * @param eagerLimit      messages up to this many bytes go eagerly, in one packet; larger ones by
 *                        rendezvous; {@link #FABRIC_CHOICE} (the default) takes the fabric's
 *                        {@linkplain org.jspin.nic.fabric.Fabric#preferredEagerLimit preference}
 * @param chunkSize       payload bytes per rendezvous data packet (also the staging buffer size);
 *                        {@link #FABRIC_CHOICE} (the default) takes the fabric's
 *                        {@linkplain org.jspin.nic.fabric.Fabric#preferredChunkSize preference}
 * @param packets         packets each rank may have in flight (the pool; bounds staging memory)
 * @param streamingUnpack whether a receive unpacks each chunk as it arrives (true) or stages the
 *                        whole message and unpacks it at the end (false)
 * @param eagerCredit     eager bytes a rank may send to one peer before that peer has taken them
 *                        (matched them to receives): beyond it, messages go by rendezvous until the
 *                        peer gives credit back. It bounds what a receiver buffers for messages
 *                        nobody has asked for yet, per sender; at least twice the eager limit
 * @param rtsPayload      bytes of a rendezvous message's start that travel with its RTS (at most a
 *                        chunk), so that a receive already posted has them one round trip earlier;
 *                        {@link #FABRIC_CHOICE} (the default) takes the fabric's
 *                        {@linkplain org.jspin.nic.fabric.Fabric#preferredRtsPayload preference}
 */
public record NicConfig(int eagerLimit, int chunkSize, int packets, boolean streamingUnpack, long eagerCredit,
                        int rtsPayload) {
    /** Eager credit per peer unless set: {@link NicSettings#EAGER_CREDIT}, read as this class loads. */
    public static final long DEFAULT_EAGER_CREDIT = Settings.current().get(NicSettings.EAGER_CREDIT);

    /** {@link #eagerLimit}, {@link #chunkSize} and {@link #rtsPayload}: as the fabric prefers. */
    public static final int FABRIC_CHOICE = -1;

    /** The eager limit of a fabric that states no preference: 16 KiB. */
    public static final int DEFAULT_EAGER_LIMIT = 16 << 10;

    /** The chunk size of a fabric that states no preference: 256 KiB. */
    public static final int DEFAULT_CHUNK_SIZE = 256 << 10;

    /**
     * Defaults: the fabric's eager limit, chunk size and RTS payload, 64 packets, streaming unpack,
     * 2 MiB eager credit.
     */
    public static final NicConfig DEFAULT = new NicConfig(FABRIC_CHOICE, FABRIC_CHOICE, 64, true);

    /** Packets kept back for control traffic (RTS, CTS, eager) so bulk data cannot starve it. */
    public static final int CONTROL_RESERVE = 4;

    /** Settings with the default eager credit. */
    public NicConfig(int eagerLimit, int chunkSize, int packets, boolean streamingUnpack) {
        this(eagerLimit, chunkSize, packets, streamingUnpack, Math.max(DEFAULT_EAGER_CREDIT, 2L * eagerLimit));
    }

    /** Settings whose RTS payload is the fabric's choice. */
    public NicConfig(int eagerLimit, int chunkSize, int packets, boolean streamingUnpack, long eagerCredit) {
        this(eagerLimit, chunkSize, packets, streamingUnpack, eagerCredit, FABRIC_CHOICE);
    }

    /**
     * @throws MpiException ERR_ARG naming the setting out of range
     */
    public NicConfig {
        if (eagerLimit < FABRIC_CHOICE) {
            throw new MpiException(ErrorClass.ERR_ARG, "eager limit must be non-negative, or " + FABRIC_CHOICE
                    + " for the fabric's choice, got " + eagerLimit);
        }
        if (chunkSize < 64 && chunkSize != FABRIC_CHOICE) {
            throw new MpiException(ErrorClass.ERR_ARG, "chunk size must be at least 64 bytes, or " + FABRIC_CHOICE
                    + " for the fabric's choice, got " + chunkSize);
        }
        if (chunkSize != FABRIC_CHOICE && eagerLimit > chunkSize) {
            throw new MpiException(ErrorClass.ERR_ARG, "eager limit " + eagerLimit
                    + " must not exceed the chunk size " + chunkSize + " (an eager message is one packet)");
        }
        if (eagerCredit < 2L * eagerLimit) {
            throw new MpiException(ErrorClass.ERR_ARG, "eager credit " + eagerCredit
                    + " must be at least twice the eager limit " + eagerLimit);
        }
        if (rtsPayload < FABRIC_CHOICE || chunkSize != FABRIC_CHOICE && rtsPayload > chunkSize) {
            String range = chunkSize == FABRIC_CHOICE ? "[0, the chunk size]"
                    : "[0, " + chunkSize + "] (the chunk size)";
            throw new MpiException(ErrorClass.ERR_ARG, "RTS payload must be in " + range + ", or " + FABRIC_CHOICE
                    + " for the fabric's choice, got " + rtsPayload);
        }
        if (packets < 2 * CONTROL_RESERVE || packets > 1 << 15) {
            throw new MpiException(ErrorClass.ERR_ARG, "packets in flight must be in [" + 2 * CONTROL_RESERVE
                    + ", " + (1 << 15) + "], got " + packets);
        }
    }

    /**
     * The eager limit a NIC uses over a fabric: this one's, or if it is {@link #FABRIC_CHOICE} the
     * fabric's {@code preferred} limit, never above a chunk (an eager message is one packet) nor
     * above half the eager credit (two of them fit in what a receiver keeps for a sender).
     *
     * @param preferred the fabric's {@linkplain org.jspin.nic.fabric.Fabric#preferredEagerLimit preference}
     */
    public int eagerLimitOver(int preferred) {
        if (eagerLimit != FABRIC_CHOICE) {
            return eagerLimit;
        }
        int chunk = chunkSize == FABRIC_CHOICE ? preferred : Math.min(preferred, chunkSize);
        return (int) Math.max(0, Math.min(chunk, eagerCredit / 2));
    }

    /**
     * These settings as a NIC uses them over a fabric: the chunk size this one's, or if it is
     * {@link #FABRIC_CHOICE} the fabric's {@code preferred} size (raised to an eager limit set
     * above it, since an eager message is one packet).
     *
     * @param preferred the fabric's {@linkplain org.jspin.nic.fabric.Fabric#preferredChunkSize preference}
     * @throws MpiException ERR_ARG if {@code preferred} is below 64 bytes
     */
    public NicConfig over(int preferred) {
        if (chunkSize != FABRIC_CHOICE) {
            return this;
        }
        if (preferred < 64) {
            throw new MpiException(ErrorClass.ERR_ARG, "a fabric's preferred chunk size must be at least 64 bytes, got "
                    + preferred);
        }
        return withChunkSize(Math.max(preferred, eagerLimit));
    }

    /**
     * @return these settings as a NIC uses them over {@code fabric}: {@link #over(int)} its
     *         {@linkplain Fabric#preferredChunkSize preferred chunk size}, at most its largest payload
     */
    public NicConfig over(Fabric fabric) {
        return over(Math.min(fabric.preferredChunkSize(), fabric.maxPayload()));
    }

    /** @return a copy with another eager limit (and at least twice as much eager credit) */
    public NicConfig withEagerLimit(int bytes) {
        return new NicConfig(bytes, chunkSize, packets, streamingUnpack, Math.max(eagerCredit, 2L * bytes), rtsPayload);
    }

    /** @return a copy with another eager credit per peer */
    public NicConfig withEagerCredit(long bytes) {
        return new NicConfig(eagerLimit, chunkSize, packets, streamingUnpack, bytes, rtsPayload);
    }

    /** @return a copy with another chunk size ({@link #FABRIC_CHOICE}: as the fabric prefers) */
    public NicConfig withChunkSize(int bytes) {
        return new NicConfig(eagerLimit, bytes, packets, streamingUnpack, eagerCredit,
                rtsPayload == FABRIC_CHOICE || bytes == FABRIC_CHOICE ? rtsPayload : Math.min(rtsPayload, bytes));
    }

    /** @return a copy with another packet pool size */
    public NicConfig withPackets(int count) {
        return new NicConfig(eagerLimit, chunkSize, count, streamingUnpack, eagerCredit, rtsPayload);
    }

    /** @return a copy with streaming unpack on or off */
    public NicConfig withStreamingUnpack(boolean on) {
        return new NicConfig(eagerLimit, chunkSize, packets, on, eagerCredit, rtsPayload);
    }

    /** @return a copy sending {@code bytes} with each RTS ({@link #FABRIC_CHOICE}: as the fabric prefers) */
    public NicConfig withRtsPayload(int bytes) {
        return new NicConfig(eagerLimit, chunkSize, packets, streamingUnpack, eagerCredit, bytes);
    }
}
