package org.jspin.transport.netty;

import org.jspin.nic.fabric.Packet;

/** Where the decoder gets the packet objects it fills (the fabric recycles the ones the engine releases). */
interface PacketPool {
    /** @return a cleared packet */
    Packet acquire();

    /** A pool that makes a new packet every time (for tests of the codec alone). */
    PacketPool NEW = () -> {
        Packet p = new Packet();
        p.clear();
        return p;
    };
}
