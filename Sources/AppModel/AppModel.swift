/// The app's screen models; see the files of this module.
enum AppModelModule {}
