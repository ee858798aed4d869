package org.jspin.nic.launch;

import org.jspin.nic.Job;

/**
 * A process's place in a job a launcher started.
 *
 * @param job      the job, with whatever attachments its fabric needs to join it
 * @param rank     this process's world rank
 * @param fabric   the fabric that connects the job's processes
 * @param launcher which launcher started it (for messages: {@code jspin}, {@code hydra}, {@code slurm}, {@code ompi})
 */
public record Launched(Job job, int rank, String fabric, String launcher) {
}
