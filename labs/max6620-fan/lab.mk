# Hardware support: the MAX6620 fan controller's hwmon driver on an
# SMBus chip emulated by i2c-stub. The exercise writes the driver's
# tach count <-> RPM conversions and its fan target store, which in 6.1
# overflows the 11-bit count register.
CHAPTER := 04
TITLE := The MAX6620 fan controller on an emulated SMBus, and its target overflow
TIMEOUT := 180
FILES := drivers/hwmon/max6620.c:tree Documentation/hwmon/max6620.rst:kfile
