package org.jspin.datatype.kernel;

/**
 * A kernel that packs some blocks its own way and leaves the rest, and all unpacking, to the block
 * kernel of the same shape ({@link #blocks}): the SIMD window gathers. An interface, so that code
 * looking through such a kernel never loads the kernel's class, which needs the Vector API.
 */
interface GatherOverBlocks {
    /** @return the kernel of the same shape that this one leaves the tail and unpacking to */
    CopyKernel blocks();
}
