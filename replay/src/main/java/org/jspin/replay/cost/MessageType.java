package org.jspin.replay.cost;

/**
 * A message's datatype as a trace names it: its description in {@code ../shared/DATATYPE-JSON.md}'s
 * format (one line) and its size in bytes; {@code contiguous} when any count of it, laid end to end,
 * is one block of bytes (then it moves as plain bytes and costs nothing beyond LogGOPS).
 *
 * @param json       the description
 * @param size       MPI_Type_size of the type, bytes
 * @param contiguous whether its elements are one block of bytes (one region, extent equal to size)
 */
public record MessageType(String json, long size, boolean contiguous) {
}
