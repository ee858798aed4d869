package org.jspin.nic.engine;

import org.jspin.nic.NicConfig;
import org.jspin.nic.fabric.Fabric;

/**
 * The sender's settings over one fabric: the protocol settings, with each value the settings
 * leave to the fabric ({@link NicConfig#FABRIC_CHOICE}) taken from it, once, when the core is made.
 *
 * @param chunkSize        payload bytes of a DATA packet
 * @param eagerLimit       the largest message sent in one EAGER packet ({@link NicConfig#eagerLimitOver})
 * @param rtsPayload       bytes of a rendezvous message sent with its RTS
 * @param packedRtsPayload whether {@code rtsPayload} applies to packed sends too: not by the fabric's
 *                         choice where packets are handed over by reference; a payload the settings
 *                         name applies to every send
 * @param wholeData        a data phase up to this long of a message sent in place goes as one DATA
 *                         packet ({@link Fabric#preferredWholeData})
 */
record SendLimits(int chunkSize, int eagerLimit, int rtsPayload, boolean packedRtsPayload, int wholeData) {

    /** @return the limits of {@code config} (already {@link NicConfig#over(Fabric) over} {@code fabric}) on {@code fabric} */
    static SendLimits of(NicConfig config, Fabric fabric) {
        int rts = config.rtsPayload() == NicConfig.FABRIC_CHOICE ? fabric.preferredRtsPayload() : config.rtsPayload();
        return new SendLimits(config.chunkSize(),
                config.eagerLimitOver(fabric.preferredEagerLimit()),
                Math.max(0, Math.min(rts, config.chunkSize())),
                config.rtsPayload() != NicConfig.FABRIC_CHOICE || fabric.mayHoldArrivals(),
                Math.max(0, Math.min(fabric.preferredWholeData(), fabric.maxPayload())));
    }
}
