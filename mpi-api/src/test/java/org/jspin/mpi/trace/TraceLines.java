package org.jspin.mpi.trace;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A rank's trace file as the tests compare it: its labels depend on how many calc lines it has, so they are renamed. */
final class TraceLines {
    private TraceLines() {
    }

    /**
     * @return the lines before the first message of the world's collective context (context 1),
     *         calc lines left out and labels renamed L1, L2, ... in order of first appearance
     */
    static String userPart(List<String> lines) {
        StringBuilder b = new StringBuilder();
        Map<String, String> names = new HashMap<>();
        for (String line : lines) {
            String[] w = line.split(" ");
            if (w[0].equals("calc")) {
                continue;
            }
            if (isCollective(w)) {
                break;
            }
            if (!w[0].equals("jspin-trace") && !w[0].equals("type")) {
                w[1] = names.computeIfAbsent(w[1], l -> "L" + (names.size() + 1));
            }
            for (int i = 3; w[0].equals("wait") && i < w.length; i++) {
                w[i] = names.get(w[i]);
            }
            b.append(String.join(" ", w)).append('\n');
        }
        return b.toString();
    }

    /** @return whether the line's words are a send or receive on context 1 */
    static boolean isCollective(String[] w) {
        return (w[0].endsWith("send") || w[0].endsWith("recv")) && w.length > 7 && w[7].equals("1");
    }
}
