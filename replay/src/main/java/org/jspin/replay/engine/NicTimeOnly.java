package org.jspin.replay.engine;

import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;

/** A NIC's costs without their CPU part, which the replay has already turned into calcs. */
record NicTimeOnly(MessageCosts costs) implements MessageCosts {
    @Override
    public String nic() {
        return costs.nic();
    }

    @Override
    public long sendCpuNs(MessageType type, long count) {
        return 0;
    }

    @Override
    public long sendNicNs(MessageType type, long count) {
        return costs.sendNicNs(type, count);
    }

    @Override
    public long recvNicNs(MessageType type, long count) {
        return costs.recvNicNs(type, count);
    }

    @Override
    public long recvCpuNs(MessageType type, long count) {
        return 0;
    }
}
