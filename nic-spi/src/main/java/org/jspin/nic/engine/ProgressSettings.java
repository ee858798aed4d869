package org.jspin.nic.engine;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * How a rank waits and how its progress thread runs, read once when a NIC starts. The figures
 * behind the defaults are in docs/one-host.md.
 *
 * @param spins            idle rounds the progress thread spins before yielding
 * @param yields           idle rounds it yields before parking
 * @param drivenParkNanos  how long the progress thread of a poll-driven fabric parks at least while callers drive
 *                         it (when the last caller stops, the thread takes over within this and the quiet period)
 * @param quietNanos       how long after a caller's last round that progress thread still keeps out of the
 *                         fabric: callers that send and wait in quick succession drive it themselves, and a
 *                         thread blocked in the fabric would have to be woken for each of them
 * @param waitedParkNanos  how long it parks while a caller waits (the caller wakes it when it must take over,
 *                         so this only bounds a lost wake-up)
 * @param waitSpinNanos    how long a waiting caller drives the NIC before it blocks, where every rank has a CPU:
 *                         blocking at once costs a wake-up of a halted virtual CPU per message
 * @param idlePollNanos    how long the progress thread of a fabric that progresses in calls sleeps between
 *                         looks: nobody wakes it for arrivals, it only keeps a computing rank answering its peers
 */
public record ProgressSettings(int spins, int yields, long drivenParkNanos, long quietNanos, long waitedParkNanos,
                               long waitSpinNanos, long idlePollNanos) {
    private static final long MINUTE_US = 60_000_000;

    /** {@code -Djspin.progress.spins}. */
    public static final Setting<Long> SPINS = Setting.number("jspin.progress.spins", 200, 0, 1_000_000,
            "idle rounds the progress thread spins before yielding");
    /** {@code -Djspin.progress.yields}. */
    public static final Setting<Long> YIELDS = Setting.number("jspin.progress.yields", 20, 0, 1_000_000,
            "idle rounds the progress thread yields before parking");
    /** {@code -Djspin.progress.driven.park.us}. */
    public static final Setting<Long> DRIVEN_PARK_US = Setting.number("jspin.progress.driven.park.us", 1000, 0, MINUTE_US,
            "us the progress thread of a poll-driven fabric parks at least while callers drive it");
    /** {@code -Djspin.progress.quiet.us}. */
    public static final Setting<Long> QUIET_US = Setting.number("jspin.progress.quiet.us", 2000, 0, MINUTE_US,
            "us after a caller's last round that the progress thread keeps out of a poll-driven fabric");
    /** {@code -Djspin.progress.waited.park.us}. */
    public static final Setting<Long> WAITED_PARK_US = Setting.number("jspin.progress.waited.park.us", 20_000, 0,
            MINUTE_US, "us the progress thread parks while a caller waits (bounds a lost wake-up)");
    /** {@code -Djspin.wait.spin.us}. */
    public static final Setting<Long> WAIT_SPIN_US = Setting.number("jspin.wait.spin.us", 2000, 0, MINUTE_US,
            "us a waiting rank drives its NIC before it blocks, where every rank of the host has a CPU");
    /** {@code -Djspin.progress.poll.us}. */
    public static final Setting<Long> POLL_US = Setting.number("jspin.progress.poll.us", 10_000, 1, MINUTE_US,
            "us between the progress thread's looks at a fabric that makes progress in calls (shm)");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(SPINS, YIELDS, DRIVEN_PARK_US, QUIET_US, WAITED_PARK_US,
            WAIT_SPIN_US, POLL_US);

    /**
     * @return the settings in {@code settings}
     * @throws org.jspin.error.MpiException ERR_ARG naming the property and the value if one is malformed
     */
    public static ProgressSettings from(Settings settings) {
        return new ProgressSettings(Math.toIntExact(settings.get(SPINS)), Math.toIntExact(settings.get(YIELDS)),
                micros(settings, DRIVEN_PARK_US), micros(settings, QUIET_US), micros(settings, WAITED_PARK_US),
                micros(settings, WAIT_SPIN_US), micros(settings, POLL_US));
    }

    private static long micros(Settings settings, Setting<Long> setting) {
        return TimeUnit.MICROSECONDS.toNanos(settings.get(setting));
    }
}
