#include <stdio.h>
#include <jconfig.h>
#include <turbojpeg.h>
