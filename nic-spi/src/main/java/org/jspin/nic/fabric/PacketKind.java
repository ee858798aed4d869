package org.jspin.nic.fabric;

/** What a packet is for, in the eager/rendezvous protocol every NIC shares. */
public enum PacketKind {
    /** A whole small message: envelope, signature and payload in one packet. */
    EAGER,
    /** Request to send: the envelope of a large message, matched before any of its data flows. */
    RTS,
    /** Clear to send: the receiver matched an RTS and says how many bytes it accepts. */
    CTS,
    /** A chunk of a rendezvous message's payload, addressed to the receiver's operation. */
    DATA,
    /** Eager credit given back: the receiver has taken {@code messageLength} more eager bytes from the target. */
    CREDIT
}
