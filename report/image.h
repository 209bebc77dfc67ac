/* image.h — read a run's log straight out of an isobench disk image (issue 11 item 3).
 *
 * In:  a path: a log file, or an image (the hybrid ISO, a USB stick's dump) whose MBR names
 *      a FAT partition labelled ISOBENCHEFI holding \ISOBENCH\RESULTS\*.LOG.
 * Out: a FILE open for reading: the newest results log (by FAT date and time) when path is
 *      such an image (*is_image = 1), else the file itself (*is_image = 0); NULL if path
 *      cannot be opened (errno set). A small FAT reader of our own (FAT12/16/32, 8.3 names,
 *      cluster chains bounded by the volume): mtools reads FAT images but is a program, not
 *      a library; this keeps isobench-report free of a subprocess and a run-time package.
 *      tests/test-resultsfile.sh checks it against images that mtools and Linux wrote.
 */
#ifndef ISOBENCH_IMAGE_H
#define ISOBENCH_IMAGE_H

#include <stdio.h>

FILE *image_fopen(const char *path, int *is_image);

#endif
