; The device code of examples/reschedule/matrix_mul.cu as tcgen reschedule --emit=llvm
; writes it (clang-22 -O1 -Xclang -disable-llvm-passes, then the cleanup
; pass list): the input of the lit tests that do not run clang.
; ModuleID = 'examples/reschedule/matrix_mul.cu'
source_filename = "examples/reschedule/matrix_mul.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_blockIdx_t = type { i8 }
%struct.__cuda_builtin_threadIdx_t = type { i8 }

$_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii = comdat any

$_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii = comdat any

$_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2As = comdat any

$_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2Bs = comdat any

$_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2As = comdat any

$_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2Bs = comdat any

@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2As = linkonce_odr dso_local addrspace(3) global [16 x [16 x float]] undef, comdat, align 4
@_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2Bs = linkonce_odr dso_local addrspace(3) global [16 x [16 x float]] undef, comdat, align 4
@_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2As = linkonce_odr dso_local addrspace(3) global [32 x [32 x float]] undef, comdat, align 4
@_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2Bs = linkonce_odr dso_local addrspace(3) global [32 x [32 x float]] undef, comdat, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3, i32 noundef %4) #0 comdat {
  %6 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %8 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %10 = mul nsw i32 %3, 16
  %11 = mul nsw i32 %10, %7
  %12 = add nsw i32 %11, %3
  %13 = sub nsw i32 %12, 1
  %14 = mul nsw i32 16, %6
  %15 = mul nsw i32 16, %4
  br label %16

16:                                               ; preds = %49, %5
  %.045 = phi i32 [ %11, %5 ], [ %50, %49 ]
  %.044 = phi i32 [ %14, %5 ], [ %51, %49 ]
  %.0 = phi float [ 0.000000e+00, %5 ], [ %.1, %49 ]
  %17 = icmp sle i32 %.045, %13
  br i1 %17, label %18, label %52

18:                                               ; preds = %16
  %19 = mul nsw i32 %3, %9
  %20 = add nsw i32 %.045, %19
  %21 = add nsw i32 %20, %8
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr %1, i64 %22
  %24 = load float, ptr %23, align 4, !tbaa !11
  %25 = sext i32 %9 to i64
  %26 = getelementptr inbounds [16 x [16 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2As to ptr), i64 0, i64 %25
  %27 = sext i32 %8 to i64
  %28 = getelementptr inbounds [16 x float], ptr %26, i64 0, i64 %27
  store float %24, ptr %28, align 4, !tbaa !11
  %29 = mul nsw i32 %4, %9
  %30 = add nsw i32 %.044, %29
  %31 = add nsw i32 %30, %8
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds float, ptr %2, i64 %32
  %34 = load float, ptr %33, align 4, !tbaa !11
  %35 = getelementptr inbounds [16 x [16 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2Bs to ptr), i64 0, i64 %25
  %36 = getelementptr inbounds [16 x float], ptr %35, i64 0, i64 %27
  store float %34, ptr %36, align 4, !tbaa !11
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %37

37:                                               ; preds = %39, %18
  %.043 = phi i32 [ 0, %18 ], [ %48, %39 ]
  %.1 = phi float [ %.0, %18 ], [ %47, %39 ]
  %38 = icmp slt i32 %.043, 16
  br i1 %38, label %39, label %49

39:                                               ; preds = %37
  %40 = sext i32 %.043 to i64
  %41 = getelementptr inbounds [16 x float], ptr %26, i64 0, i64 %40
  %42 = load float, ptr %41, align 4, !tbaa !11
  %43 = getelementptr inbounds [16 x [16 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ13MatrixMulCUDAILi16EEvPfS0_S0_iiE2Bs to ptr), i64 0, i64 %40
  %44 = getelementptr inbounds [16 x float], ptr %43, i64 0, i64 %27
  %45 = load float, ptr %44, align 4, !tbaa !11
  %46 = fmul contract float %42, %45
  %47 = fadd contract float %.1, %46
  %48 = add nsw i32 %.043, 1
  br label %37, !llvm.loop !13

49:                                               ; preds = %37
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %50 = add nsw i32 %.045, 16
  %51 = add nsw i32 %.044, %15
  br label %16, !llvm.loop !16

52:                                               ; preds = %16
  %53 = mul nsw i32 %15, %7
  %54 = add nsw i32 %53, %14
  %55 = mul nsw i32 %4, %9
  %56 = add nsw i32 %54, %55
  %57 = add nsw i32 %56, %8
  %58 = sext i32 %57 to i64
  %59 = getelementptr inbounds float, ptr %0, i64 %58
  store float %.0, ptr %59, align 4, !tbaa !11
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3, i32 noundef %4) #0 comdat {
  %6 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %8 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %10 = mul nsw i32 %3, 32
  %11 = mul nsw i32 %10, %7
  %12 = add nsw i32 %11, %3
  %13 = sub nsw i32 %12, 1
  %14 = mul nsw i32 32, %6
  %15 = mul nsw i32 32, %4
  br label %16

16:                                               ; preds = %49, %5
  %.045 = phi i32 [ %11, %5 ], [ %50, %49 ]
  %.044 = phi i32 [ %14, %5 ], [ %51, %49 ]
  %.0 = phi float [ 0.000000e+00, %5 ], [ %.1, %49 ]
  %17 = icmp sle i32 %.045, %13
  br i1 %17, label %18, label %52

18:                                               ; preds = %16
  %19 = mul nsw i32 %3, %9
  %20 = add nsw i32 %.045, %19
  %21 = add nsw i32 %20, %8
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr %1, i64 %22
  %24 = load float, ptr %23, align 4, !tbaa !11
  %25 = sext i32 %9 to i64
  %26 = getelementptr inbounds [32 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2As to ptr), i64 0, i64 %25
  %27 = sext i32 %8 to i64
  %28 = getelementptr inbounds [32 x float], ptr %26, i64 0, i64 %27
  store float %24, ptr %28, align 4, !tbaa !11
  %29 = mul nsw i32 %4, %9
  %30 = add nsw i32 %.044, %29
  %31 = add nsw i32 %30, %8
  %32 = sext i32 %31 to i64
  %33 = getelementptr inbounds float, ptr %2, i64 %32
  %34 = load float, ptr %33, align 4, !tbaa !11
  %35 = getelementptr inbounds [32 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2Bs to ptr), i64 0, i64 %25
  %36 = getelementptr inbounds [32 x float], ptr %35, i64 0, i64 %27
  store float %34, ptr %36, align 4, !tbaa !11
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %37

37:                                               ; preds = %39, %18
  %.043 = phi i32 [ 0, %18 ], [ %48, %39 ]
  %.1 = phi float [ %.0, %18 ], [ %47, %39 ]
  %38 = icmp slt i32 %.043, 32
  br i1 %38, label %39, label %49

39:                                               ; preds = %37
  %40 = sext i32 %.043 to i64
  %41 = getelementptr inbounds [32 x float], ptr %26, i64 0, i64 %40
  %42 = load float, ptr %41, align 4, !tbaa !11
  %43 = getelementptr inbounds [32 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ13MatrixMulCUDAILi32EEvPfS0_S0_iiE2Bs to ptr), i64 0, i64 %40
  %44 = getelementptr inbounds [32 x float], ptr %43, i64 0, i64 %27
  %45 = load float, ptr %44, align 4, !tbaa !11
  %46 = fmul contract float %42, %45
  %47 = fadd contract float %.1, %46
  %48 = add nsw i32 %.043, 1
  br label %37, !llvm.loop !17

49:                                               ; preds = %37
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %50 = add nsw i32 %.045, 32
  %51 = add nsw i32 %.044, %15
  br label %16, !llvm.loop !18

52:                                               ; preds = %16
  %53 = mul nsw i32 %15, %7
  %54 = add nsw i32 %53, %14
  %55 = mul nsw i32 %4, %9
  %56 = add nsw i32 %54, %55
  %57 = add nsw i32 %56, %8
  %58 = sext i32 %57 to i64
  %59 = getelementptr inbounds float, ptr %0, i64 %58
  store float %.0, ptr %59, align 4, !tbaa !11
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !8, i64 0}
!13 = distinct !{!13, !14, !15}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"llvm.loop.unroll.disable"}
!16 = distinct !{!16, !14, !15}
!17 = distinct !{!17, !14, !15}
!18 = distinct !{!18, !14, !15}
