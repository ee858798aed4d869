package org.jspin.replay.schedule;

import org.jspin.replay.cost.MessageCosts;

/**
 * A schedule where a host's packing and unpacking are GOAL {@code calc}s, for GOAL (which has no
 * datatypes): before each send its {@code sendCpuNs}, taking over what the send waited for; after each
 * receive its {@code recvCpuNs}, taking over what waited for the receive to complete. A NIC's own time
 * ({@code sendNicNs}, {@code recvNicNs}) has no GOAL operation and stays out. Each such calc carries
 * its message's datatype and count ({@link #isPackCalc}), so that a replay counts it as packing, not
 * compute; GOAL writes it as any calc.
 */
public final class PackAsCalc {
    private PackAsCalc() {
    }

    /** @return {@code s} with the CPU costs {@code costs} gives as calcs (unchanged when all are zero) */
    public static Schedule apply(Schedule s, MessageCosts costs) {
        int n = s.operations();
        long[] cpu = new long[n];
        boolean any = false;
        for (int op = 0; op < n; op++) {
            int t = s.type(op);
            if (t == Schedule.PLAIN || s.kind(op) == Schedule.CALC) continue;
            cpu[op] = s.kind(op) == Schedule.SEND ? costs.sendCpuNs(s.types().get(t), s.count(op))
                    : costs.recvCpuNs(s.types().get(t), s.count(op));
            any |= cpu[op] != 0;
        }
        if (!any) return s;
        ScheduleBuilder b = new ScheduleBuilder(s.source(), s.ranks());
        int[] mapped = new int[n];
        int[] extra = new int[n];
        for (int r = 0; r < s.ranks(); r++) {
            b.beginRank(r, s.line(s.firstOf(r)));
            for (int op = s.firstOf(r); op < s.firstOf(r + 1); op++) {
                extra[op] = -1;
                boolean pack = cpu[op] != 0 && s.kind(op) == Schedule.SEND;
                if (pack) extra[op] = packCalc(s, b, op, cpu[op]);
                mapped[op] = copy(s, b, op);
                if (pack) b.requires(mapped[op], extra[op], s.line(op));
                if (cpu[op] != 0 && s.kind(op) == Schedule.RECV) {
                    extra[op] = packCalc(s, b, op, cpu[op]);
                    b.requires(extra[op], mapped[op], s.line(op));
                }
            }
            for (int op = s.firstOf(r); op < s.firstOf(r + 1); op++) {
                boolean unpacked = extra[op] >= 0 && s.kind(op) == Schedule.RECV;
                for (int i = 0; i < s.completionDependents(op); i++) {
                    int to = s.completionDependent(op, i);
                    b.requires(target(s, to, mapped, extra), unpacked ? extra[op] : mapped[op], s.line(to));
                }
                for (int i = 0; i < s.startDependents(op); i++) {
                    int to = s.startDependent(op, i);
                    b.irequires(target(s, to, mapped, extra), mapped[op], s.line(to));
                }
            }
        }
        return b.build();
    }

    /** @return whether calc {@code op} of {@code s} is a host's pack or unpack this class made */
    public static boolean isPackCalc(Schedule s, int op) {
        return s.kind(op) == Schedule.CALC && s.type(op) >= 0;
    }

    private static int packCalc(Schedule s, ScheduleBuilder b, int op, long ns) {
        int calc = b.calc(ns, s.cpu(op), null, s.line(op));
        b.datatype(calc, s.types().get(s.type(op)), s.count(op));
        return calc;
    }

    /** What waited for {@code to} now waits for its pack when it has one. */
    private static int target(Schedule s, int to, int[] mapped, int[] extra) {
        return extra[to] >= 0 && s.kind(to) == Schedule.SEND ? extra[to] : mapped[to];
    }

    private static int copy(Schedule s, ScheduleBuilder b, int op) {
        String label = s.label[op];
        int copy = switch (s.kind(op)) {
            case Schedule.SEND -> b.send(s.peer(op), s.tag(op), s.size(op), s.cpu(op), s.nic(op), label, s.line(op));
            case Schedule.RECV -> b.recv(s.peer(op), s.tag(op), s.size(op), s.cpu(op), s.nic(op), label, s.line(op));
            default -> s.isMark(op) ? b.mark(s.cpu(op), label, s.line(op)) : b.calc(s.size(op), s.cpu(op), label, s.line(op));
        };
        if (s.type(op) >= 0) b.datatype(copy, s.types().get(s.type(op)), s.count(op));
        return copy;
    }
}
