package org.jspin.replay.testkit;

import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;

/**
 * A NIC whose every typed message costs the same, whatever its type and count: for cases worked by hand.
 *
 * @param nic     the NIC's name
 * @param sendCpu the sender's CPU time (a pack), ns
 * @param sendNic the sender's NIC time, ns
 * @param recvNic the receiver's NIC time, ns
 * @param recvCpu the receiver's CPU time (an unpack), ns
 */
public record FixedCosts(String nic, long sendCpu, long sendNic, long recvNic, long recvCpu) implements MessageCosts {
    /** @return a host that packs in {@code packNs} and unpacks in {@code unpackNs}, its NIC adding nothing */
    public static FixedCosts hostPacking(long packNs, long unpackNs) {
        return new FixedCosts("host", packNs, 0, 0, unpackNs);
    }

    @Override public long sendCpuNs(MessageType type, long count) { return sendCpu; }

    @Override public long sendNicNs(MessageType type, long count) { return sendNic; }

    @Override public long recvNicNs(MessageType type, long count) { return recvNic; }

    @Override public long recvCpuNs(MessageType type, long count) { return recvCpu; }
}
