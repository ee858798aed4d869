package org.jspin.replay;

import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;

/**
 * A NIC that moves every message as plain bytes: no datatype costs anything beyond LogGOPS, so a
 * replay with it is LogGOPSim's. The replay's reference, and {@code --nic}'s stand-in when no cost
 * model of that name is installed.
 *
 * @param nic the name the output gives it
 */
public record PlainBytes(String nic) implements MessageCosts {
    /** The name {@link #INSTANCE} reports. */
    public static final String NAME = "loggops";
    /** Plain bytes under the name {@value #NAME}. */
    public static final PlainBytes INSTANCE = new PlainBytes(NAME);

    @Override
    public long sendCpuNs(MessageType type, long count) { return 0; }

    @Override
    public long sendNicNs(MessageType type, long count) { return 0; }

    @Override
    public long recvNicNs(MessageType type, long count) { return 0; }

    @Override
    public long recvCpuNs(MessageType type, long count) { return 0; }
}
