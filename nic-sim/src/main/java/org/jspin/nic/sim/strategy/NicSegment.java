package org.jspin.nic.sim.strategy;

import org.jspin.datatype.cursor.Checkpoint;
import org.jspin.datatype.cursor.Walker;
import org.jspin.nic.sim.handler.Dma;
import org.jspin.nic.sim.work.HandlerWork;

/**
 * A handler's segment: its position in the message's dataloops, moved the way a NIC moves it, one
 * leaf block at a time ({@link #walkTo}, {@link #emit}), and counted as it goes. Positioning in
 * closed form ({@link #seek}) and checkpoint copies are the datatype engine's; their costs are
 * counted by the strategies that use them.
 */
public final class NicSegment extends Walker {
    /** A segment at the start of {@code shape}'s message. */
    public NicSegment(MessageShape shape) {
        super(shape.compiled(), shape.count(), shape.message());
    }

    /**
     * Walks forward to packed offset {@code target} without moving data (catch-up), counting every
     * whole block passed over and the levels entered.
     */
    public void walkTo(long target, HandlerWork work) {
        long entered = framesEntered();
        while (position() < target) {
            long left = currentBlockLength() - blockDone();
            long need = target - position();
            if (need >= left) {
                consumeBlock();
                work.catchUpBlocks++;
            } else {
                advanceInBlock(need);
            }
        }
        work.levels += framesEntered() - entered;
    }

    /**
     * Emits the next {@code length} bytes of the message as DMA pieces, one per contiguous block
     * (or part of one), and moves past them.
     */
    public void emit(long length, Dma dma, HandlerWork work) {
        long entered = framesEntered();
        while (length > 0) {
            long left = currentBlockLength() - blockDone();
            long piece = Math.min(left, length);
            dma.piece(currentBlockOffset() + blockDone(), piece, work);
            work.blocks++;
            if (piece == left) {
                consumeBlock();
            } else {
                advanceInBlock(piece);
            }
            length -= piece;
        }
        work.levels += framesEntered() - entered;
    }

    /** Copies {@code from} into this segment, counting the state bytes a NIC would copy. */
    public void load(Checkpoint from, HandlerWork work) {
        restore(from);
        work.checkpointBytes += from.stateBytes();
    }

    /** @return bytes of NIC memory one segment of {@code depth} frames takes (as a checkpoint of it) */
    public static long stateBytes(int depth) {
        return 24L * depth + 24;
    }
}
