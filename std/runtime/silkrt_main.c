/*
 * silkrt_main.c: a Silk program's main (silkrt.h): the program
 * registered, `fn main` run, every async and task call waited for, and
 * main's status returned for the C main to return (the system keeps its
 * low 8 bits, as for any program).
 */
#include "silkrt_internal.h"

int silkrt_main(const SilkrtProgram *program, int argc, char **argv, int32_t (*silk_main)(void))
{
    (void)argc; /* std/gpu has no arguments yet */
    (void)argv;
    silkrt_register(program);
    int32_t status = silk_main();
    silkrt_wait_tasks();
    return (int)status;
}
