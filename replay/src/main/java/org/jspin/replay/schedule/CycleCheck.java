package org.jspin.replay.schedule;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** Kahn's walk over a schedule's dependencies: operations it never reaches lie on or behind a cycle. */
final class CycleCheck {
    private static final int NAMED = 8;

    private CycleCheck() {
    }

    static void check(Schedule s) {
        int n = s.operations();
        int[] left = s.depCount.clone();
        int[] stack = new int[n];
        int top = 0;
        for (int op = 0; op < n; op++) if (left[op] == 0) stack[top++] = op;
        int reached = 0;
        while (top > 0) {
            int op = stack[--top];
            reached++;
            for (int i = s.doneStart[op]; i < s.doneStart[op + 1]; i++) if (--left[s.doneTo[i]] == 0) stack[top++] = s.doneTo[i];
            for (int i = s.startStart[op]; i < s.startStart[op + 1]; i++) if (--left[s.startTo[i]] == 0) stack[top++] = s.startTo[i];
        }
        if (reached == n) return;
        List<String> named = new ArrayList<>();
        int first = -1;
        for (int op = 0; op < n && named.size() < NAMED; op++) {
            if (left[op] > 0) {
                if (first < 0) first = op;
                if (s.rankOf(op) == s.rankOf(first)) named.add(s.label(op) + " (line " + s.line(op) + ")");
            }
        }
        throw new MpiException(ErrorClass.ERR_ARG, s.source() + ":" + s.line(first) + ": rank " + s.rankOf(first)
                + "'s dependencies have a cycle; it holds back " + String.join(", ", named)
                + (n - reached > named.size() ? " and " + (n - reached - named.size()) + " more" : ""));
    }
}
