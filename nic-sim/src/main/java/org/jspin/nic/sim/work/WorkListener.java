package org.jspin.nic.sim.work;

/**
 * Told of every handler invocation and every finished message, in the order the NIC ran them: where
 * a timing model (or a test) reads what the handlers did. Called on the thread driving the NIC.
 */
public interface WorkListener {
    /** Listens to nothing. */
    WorkListener NONE = new WorkListener() {
    };

    /**
     * One handler ran.
     *
     * @param kind   which handler
     * @param packet the NIC packet's index in the message (its offset / packet payload), or -1 for
     *               the header and completion handlers
     * @param hpu    the HPU it ran on
     * @param offset the packet's first byte in the message
     * @param length the packet's payload bytes
     * @param work   what it did (valid during the call only)
     */
    default void handled(HandlerKind kind, long packet, int hpu, long offset, int length, HandlerWork work) {
    }

    /**
     * The NIC memory the messages in progress hold changed.
     *
     * @param used bytes held now
     * @param peak the most ever held at once
     */
    default void nicMemory(long used, long peak) {
    }

    /** A message's handlers have all run (receive completed, or a send's last packet filled). */
    default void messageDone(MessageWork message) {
    }
}
