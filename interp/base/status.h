/*
** base/status.h: the status codes every lyt entry point returns. They are
** defined once, in lyt.h, the one header a host installs and includes;
** the cores include this name so that what they need stays explicit.
*/
#ifndef LYT_STATUS_H
#define LYT_STATUS_H

#include "interp/lyt.h"

#endif
