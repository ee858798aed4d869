package org.jspin.replay.cost;

/**
 * What moving one message of a datatype costs on one kind of NIC beyond what LogGOPS charges for its
 * plain bytes (o, O, g, G, L). For a contiguous type every cost is zero, so a replay of plain bytes is
 * LogGOPS's alone. Times in nanoseconds; the same (type, count) always costs the same.
 */
public interface MessageCosts {
    /** @return the name the replay's output gives this NIC ({@code host}, {@code sim:rw-cp}, ...) */
    String nic();

    /** @return CPU time the sender spends before the message can go (the host packs), ns */
    long sendCpuNs(MessageType type, long count);

    /**
     * @return how much later the message's last byte can leave than at line rate from the send's start,
     *         beyond LogGOPS's (sPIN's outbound handlers), ns
     */
    long sendNicNs(MessageType type, long count);

    /** @return NIC time after the last byte arrived until the data is in place, beyond LogGOPS's (sPIN's inbound handlers), ns */
    long recvNicNs(MessageType type, long count);

    /** @return CPU time the receiver spends once the message is in (the host unpacks), ns */
    long recvCpuNs(MessageType type, long count);
}
