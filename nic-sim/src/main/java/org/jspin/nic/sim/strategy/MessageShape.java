package org.jspin.nic.sim.strategy;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.lower.CompiledType;
import org.jspin.datatype.lower.Node;

/**
 * The layout of one message as the NIC sees it: {@code count} elements of a committed type, as the
 * normalised message tree of the datatype engine (the NIC's dataloops).
 *
 * @param type     the committed datatype
 * @param count    elements
 * @param compiled its compiled form (the identity checkpoints are exchangeable under)
 * @param message  the message tree, or null for an empty message
 */
public record MessageShape(Datatype type, long count, CompiledType compiled, Node message) {
    /** @return the shape of {@code count} elements of the committed {@code type} */
    public static MessageShape of(Datatype type, long count) {
        CompiledType c = type.compiled();
        return new MessageShape(type, count, c, c.message(count));
    }

    /** @return packed bytes of the message */
    public long bytes() {
        return message == null ? 0 : message.size;
    }

    /** @return segment frames a walker over the message needs */
    public int depth() {
        return message == null ? 1 : message.depth;
    }
}
