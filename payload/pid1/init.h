/* init.h — isobench as PID 1 in the image: set the system up, run, power off.
 * PID 1 never exits: a fatal setup error is reported and followed by power-off, and a
 * watchdog process powers off if the run itself stalls. */
#ifndef ISOBENCH_INIT_H
#define ISOBENCH_INIT_H

int init_main(int argc, char **argv);

#endif
