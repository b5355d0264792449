/*
** status.h: the status codes every lyt entry point returns.
** Kept apart from lyt.h so the numeric cores can use them without
** seeing the interpreter's API.
*/
#ifndef LYT_STATUS_H
#define LYT_STATUS_H

#define LYT_OK        0  /* success */
#define LYT_ERRSYNTAX 1  /* lexical or grammatical error */
#define LYT_ERRRUN    2  /* evaluation error: type, arity, algebra, range */
#define LYT_ERRMEM    3  /* allocation failed or memory limit reached */
#define LYT_ERRFILE   4  /* a file could not be read */
#define LYT_ERRLIMIT  5  /* a resource limit (depth, steps, size) was hit */

#endif
