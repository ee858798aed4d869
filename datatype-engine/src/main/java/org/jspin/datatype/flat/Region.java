package org.jspin.datatype.flat;

/**
 * One contiguous region of a flattened type map.
 *
 * @param offset byte offset from the buffer origin (may be negative)
 * @param length bytes in the region (positive)
 */
public record Region(long offset, long length) {
}
