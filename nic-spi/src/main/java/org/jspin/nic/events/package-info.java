/**
 * Flight-recorder events of the data path, per packet: what the CPU packed and unpacked, what a
 * socket fabric wrote and received. Disabled unless a recording asks for them, so they cost
 * nothing otherwise; with them, both ranks' recordings merged by time show whether the chunks of a
 * message overlap (the packing of one with the transfer of the one before) or take turns.
 *
 * <p>Turn them on for a rank's JVM with, for example,
 * {@code -XX:StartFlightRecording:filename=rank.jfr,jspin.Pack#enabled=true,jspin.Unpack#enabled=true,jspin.FrameWrite#enabled=true,jspin.PayloadReceived#enabled=true}
 * and read them with {@code jfr print --events jspin.* rank.jfr}.
 */
package org.jspin.nic.events;
