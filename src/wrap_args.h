/*
 * wrap_args.h: what a compile command line makes, read from its words as
 * nvcc reads them (`silk-occ wrap`): the one file of device code the
 * analysis can read afterwards, or none.
 */
#ifndef SILK_WRAP_ARGS_H
#define SILK_WRAP_ARGS_H

#include <stdbool.h>
#include <stddef.h>

/* argv[0] is the compiler.  True with the path of the output in `buf`
 * when the compile makes one object (-c, -dc, -dw), cubin (-cubin) or
 * fatbin (-fatbin) of one source: -o / --output-file, else nvcc's own
 * name (x.cu -> x.o, x.cubin, x.fatbin in the working directory).  False
 * for everything else, which wrap leaves alone: preprocessing (-E),
 * dependencies only (-M, -MM), PTX (-ptx, which the analysis would
 * assemble a second time), --dryrun, a link, a library (-lib), -run,
 * several sources, or an output name longer than `size`. */
bool wrap_find_output(int argc, char **argv, char *buf, size_t size);

#endif
