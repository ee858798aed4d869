package org.jspin.nic.sim.experiment;

/**
 * What the data say of one of the paper's claims (or one of its referee's questions).
 *
 * @param claim    the claim, in PAPER.md's words
 * @param verdict  "reproduced", "not reproduced", or "reproduced only under ..."
 * @param evidence the figure and the numbers behind the verdict
 */
public record Verdict(String claim, String verdict, String evidence) {
}
