package org.jspin.replay.engine;

import java.util.HashMap;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.cost.MessageCosts;
import org.jspin.replay.cost.MessageType;
import org.jspin.replay.schedule.Schedule;

/**
 * A NIC's costs of each typed message of a schedule, looked up before the replay so that the replay
 * reads two arrays; a (type, count) the schedule repeats is asked of the {@link MessageCosts} once.
 * For a send: CPU time packing and NIC time before injection; for a receive: NIC time until the data
 * is in place and CPU time unpacking.
 */
final class MessageCostTable {
    final long[] cpu;
    final long[] nic;

    private MessageCostTable(long[] cpu, long[] nic) {
        this.cpu = cpu;
        this.nic = nic;
    }

    /** @return the table, or null when no message of the schedule costs anything beyond LogGOPS */
    static MessageCostTable of(Schedule s, MessageCosts costs) {
        if (s.types().isEmpty()) return null;
        int n = s.operations();
        long[] cpu = new long[n];
        long[] nic = new long[n];
        boolean any = false;
        Map<Key, long[]> seen = new HashMap<>();
        for (int op = 0; op < n; op++) {
            int t = s.type(op);
            if (t == Schedule.PLAIN || s.kind(op) == Schedule.CALC) continue;
            boolean send = s.kind(op) == Schedule.SEND;
            long[] c = seen.computeIfAbsent(new Key(t, s.count(op), send), k -> ask(costs, s.types().get(k.type), k));
            cpu[op] = c[0];
            nic[op] = c[1];
            any |= c[0] != 0 || c[1] != 0;
        }
        return any ? new MessageCostTable(cpu, nic) : null;
    }

    private static long[] ask(MessageCosts costs, MessageType type, Key k) {
        long[] c = k.send ? new long[] {costs.sendCpuNs(type, k.count), costs.sendNicNs(type, k.count)}
                : new long[] {costs.recvCpuNs(type, k.count), costs.recvNicNs(type, k.count)};
        if (c[0] < 0 || c[1] < 0) {
            throw new MpiException(ErrorClass.ERR_INTERN, costs.nic() + " gives a negative cost (" + c[0] + " ns CPU, "
                    + c[1] + " ns NIC) to " + (k.send ? "send " : "receive ") + k.count + " of " + type.json());
        }
        return c;
    }

    private record Key(int type, long count, boolean send) {
    }
}
