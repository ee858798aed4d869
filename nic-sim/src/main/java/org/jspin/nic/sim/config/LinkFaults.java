package org.jspin.nic.sim.config;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Faults of the simulated link between two NICs, injected into the packets of every received message
 * (the paper assumes a lossless network; these exist to show that the handlers' results stay exact,
 * or fail clearly, when it is not).
 *
 * @param drop        probability that one transmission of a packet is lost
 * @param duplicate   probability that a delivered packet arrives a second time later (a retransmission
 *                    whose acknowledgement was lost)
 * @param retransmits how often a lost packet is sent again before the message fails
 */
public record LinkFaults(double drop, double duplicate, int retransmits) {
    /**
     * A lossless link. Seven retransmissions: the most InfiniBand's reliable connection allows (its
     * retry count is a 3-bit field), which RoCE NICs share.
     */
    public static final LinkFaults NONE = new LinkFaults(0, 0, 7);

    /**
     * @throws MpiException ERR_ARG naming the value out of range
     */
    public LinkFaults {
        if (!(drop >= 0 && drop < 1)) {
            throw new MpiException(ErrorClass.ERR_ARG, "drop probability must be in [0, 1), got " + drop);
        }
        if (!(duplicate >= 0 && duplicate <= 1)) {
            throw new MpiException(ErrorClass.ERR_ARG, "duplicate probability must be in [0, 1], got " + duplicate);
        }
        if (retransmits < 0 || retransmits > 1_000) {
            throw new MpiException(ErrorClass.ERR_ARG, "retransmits must be in [0, 1000], got " + retransmits);
        }
    }

    /** @return whether any packet may be lost or duplicated */
    public boolean any() {
        return drop > 0 || duplicate > 0;
    }

    /** @return a copy with another drop probability */
    public LinkFaults withDrop(double p) {
        return new LinkFaults(p, duplicate, retransmits);
    }

    /** @return a copy with another duplicate probability */
    public LinkFaults withDuplicate(double p) {
        return new LinkFaults(drop, p, retransmits);
    }

    /** @return a copy with another retransmission limit */
    public LinkFaults withRetransmits(int n) {
        return new LinkFaults(drop, duplicate, n);
    }
}
